# Constant folding of an int64 overflow is an error at the expression, not a wrapped value.
# expect: overflow_fold_add.py:11:31: error: integer overflow: 9223372036854775807 + 1 does not fit in a 64-bit integer
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    n = 4
    big = 9223372036854775807 + 1
    return c
