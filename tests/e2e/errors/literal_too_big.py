# An integer literal beyond int64 is an error, not silently clamped to 2^63 - 1.
# expect: literal_too_big.py:9:15: error: integer literal 18446744073709551617 does not fit in a 64-bit integer
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        big = 18446744073709551617
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
