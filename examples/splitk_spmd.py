# Rung 2, form B (one_matmul_all_the_way_down.md; runtime.md §9.5): split the reduction over 4
# cores as the blocks of ONE SPMD task. A zero-init task fills c, then block ks multiplies the K slice
# ks*512 .. ks*512+511 and adds its partial product into c with an atomic add. Two tasks, one edge:
# the 4 blocks run concurrently and their atomic adds may race (they commute), which is the point.
# Compare examples/splitk_chain.py (form A): the same result, one core at a time.
# expect-json: "tasks":2,"edges":1
# expect-json: "kernel":"split_k","core":"aic","block_num":4
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def splitk_spmd(a: pl.Tensor[[128, 2048], pl.FP16],
                b: pl.Tensor[[2048, 128], pl.FP16],
                c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="zero_init"):
        c[:] = pl.full([128, 128], dtype=pl.FP32, value=0.0)
    for ks in pl.spmd(4, name_hint="split_k"):
        k0 = ks * 512
        p = pl.matmul(a[:, k0:k0 + 512], b[k0:k0 + 512, :], out_dtype=pl.FP32)
        c = pl.assemble(c, p, [0, 0], atomic=pl.AtomicType.Add)
    return c
