# 2 ** 64 does not fit in int64 (Python ints are unbounded; ours are 64-bit): an error, not 0.
# expect: overflow_fold_pow.py:9:15: error: integer overflow: 2 ** 64 does not fit
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        k = 2 ** 64
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
