# Issue 6 item 1: a loop of device regions, each writing one row block of the output (the loop
# index reaches the kernel as a scalar argument).
import pypto.language as pl

@pl.jit
def rows(a: pl.Tensor[[72, 40], pl.FP32],
         b: pl.Tensor[[40, 24], pl.FP32],
         c: pl.Out[pl.Tensor[[72, 24], pl.FP32]]):
    for i in pl.range(3):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 24:i * 24 + 24, :] = pl.matmul(a[i * 24:i * 24 + 24, :], b, out_dtype=pl.FP32)
    return c
