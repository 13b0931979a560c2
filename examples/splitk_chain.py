# Rung 2, form A (one_matmul_all_the_way_down.md; runtime.md §9.5, the anti-pattern): a loop of
# device regions that each add a K slice into c atomically. Correct, but every split_k task declares
# c read-write (an atomic add is a read-modify-write of the whole output), so the runtime chains
# them: zero_init -> split_k -> split_k -> split_k -> split_k, five tasks and four edges, one core at a
# time. examples/splitk_spmd.py (form B) is the concurrent version: count the edges.
# expect-json: "tasks":5,"edges":4
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def splitk_chain(a: pl.Tensor[[128, 2048], pl.FP16],
                 b: pl.Tensor[[2048, 128], pl.FP16],
                 c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="zero_init"):
        c[:] = pl.full([128, 128], dtype=pl.FP32, value=0.0)
    for ks in pl.parallel(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="split_k"):
            k0 = ks * 512
            p = pl.matmul(a[:, k0:k0 + 512], b[k0:k0 + 512, :], out_dtype=pl.FP32)
            c = pl.assemble(c, p, [0, 0], atomic=pl.AtomicType.Add)
    return c
