# 2^32 x 2^32 elements: the element count itself overflows int64.
# expect: shape_square_overflow.py:6:19: error: pl.Tensor[[4294967296, 4294967296], pl.FP16] is too large
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[4294967296, 4294967296], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a[0:16, 0:16], a[0:16, 0:16], out_dtype=pl.FP32)
    return c
