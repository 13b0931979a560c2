# Issue 6 item 1: a loop of device regions, each writing one row block of the output (the loop
# index reaches the kernel as a scalar argument).
import pypto.language as pl

@pl.jit
def rows(a: pl.Tensor[[64, 64], pl.INT8],
         b: pl.Tensor[[64, 48], pl.INT8],
         c: pl.Out[pl.Tensor[[64, 48], pl.INT32]]):
    for i in pl.parallel(4):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 16:i * 16 + 16, :] = pl.matmul(a[i * 16:i * 16 + 16, :], b, out_dtype=pl.INT32)
    return c
