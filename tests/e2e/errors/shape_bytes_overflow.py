# 4611686018427387905 x 16 FP16 elements is more than 2^64 bytes: an error naming the type, not a
# wrapped 512-byte buffer.
# expect: shape_bytes_overflow.py:7:19: error: pl.Tensor[[4611686018427387905, 16], pl.FP16] is too large
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[4611686018427387905, 16], pl.FP16],
      b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[4611686018427387905, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
