# Issue 6 item 2: pl.pipeline over K chunks inside pl.at with an atomic pl.assemble into an Out tensor
# (FP32, odd shapes: M = 48, N = 40, K = 96 in chunks of 32).
# (variant: --memory-planner ptoas)
# args: --memory-planner ptoas
import pypto.language as pl

@pl.jit
def acc(a: pl.Tensor[[48, 96], pl.FP32],
        b: pl.Tensor[[96, 40], pl.FP32],
        c: pl.Out[pl.Tensor[[48, 40], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for k0 in pl.pipeline(0, 96, 32, stage=2):
            t = pl.matmul(a[:, k0:k0 + 32], b[k0:k0 + 32, :], out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
