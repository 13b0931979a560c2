# Negating the most negative int64 overflows.
# expect: overflow_negation.py:9:9: error: integer overflow: -(-9223372036854775808) does not fit
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    lo = -9223372036854775808
    x = -(lo)
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
