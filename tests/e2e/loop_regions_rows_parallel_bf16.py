# Issue 6 item 1: a loop of device regions, each writing one row block of the output (the loop
# index reaches the kernel as a scalar argument).
import pypto.language as pl

@pl.jit
def rows(a: pl.Tensor[[96, 48], pl.BF16],
         b: pl.Tensor[[48, 40], pl.BF16],
         c: pl.Out[pl.Tensor[[96, 40], pl.FP32]]):
    for i in pl.parallel(3):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 32:i * 32 + 32, :] = pl.matmul(a[i * 32:i * 32 + 32, :], b, out_dtype=pl.FP32)
    return c
