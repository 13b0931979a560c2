# Issue 6 item 1: a loop of device regions, each writing one row block of the output (the loop
# index reaches the kernel as a scalar argument).
# (variant: --target a5 --memory-planner dsa_rp)
# args: --target a5 --memory-planner dsa_rp
import pypto.language as pl

@pl.jit
def rows(a: pl.Tensor[[80, 64], pl.FP16],
         b: pl.Tensor[[64, 32], pl.FP16],
         c: pl.Out[pl.Tensor[[80, 32], pl.FP32]]):
    for i in pl.range(5):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 16:i * 16 + 16, :] = pl.matmul(a[i * 16:i * 16 + 16, :], b, out_dtype=pl.FP32)
    return c
