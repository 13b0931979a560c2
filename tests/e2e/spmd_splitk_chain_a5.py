# Split-K as a loop of pl.at regions (examples/splitk_chain.py, the anti-pattern) on a5: every
# split_k task takes c read-write, so the runtime chains all five tasks (four edges).
# args: --target a5
# expect-json: "tasks":5,"edges":4
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def splitk_chain(a: pl.Tensor[[64, 1024], pl.BF16],
                 b: pl.Tensor[[1024, 64], pl.BF16],
                 c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="zero_init"):
        c[:] = pl.full([64, 64], dtype=pl.FP32, value=0.0)
    for ks in pl.parallel(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="split_k"):
            k0 = ks * 256
            p = pl.matmul(a[:, k0:k0 + 256], b[k0:k0 + 256, :], out_dtype=pl.FP32)
            c = pl.assemble(c, p, [0, 0], atomic=pl.AtomicType.Add)
    return c
