# k = 0 before the loop and k = k + 1 inside: k used to be the constant 0 at every use in the loop
# (the parser folded the first value), so each iteration wrote row block 0. k is carried now.
import pypto.language as pl

@pl.jit
def rows(a: pl.Tensor[[48, 32], pl.BF16],
         b: pl.Tensor[[32, 32], pl.BF16],
         c: pl.Out[pl.Tensor[[48, 32], pl.FP32]]):
    k = 0
    for i in pl.range(3):
        r = k * 16
        with pl.at(level=pl.Level.CORE_GROUP):
            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
        k = k + 1
    return c
