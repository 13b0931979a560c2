# The inner dimensions of the matmul differ (256 vs 128).
# expect: k_mismatch.py:11:
# expect: inner dimensions differ
import pypto.language as pl

@pl.jit
def matmul(a: pl.Tensor[[128, 256], pl.FP16],
           b: pl.Tensor[[128, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
