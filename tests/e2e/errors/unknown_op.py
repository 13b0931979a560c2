# An op that does not exist.
# expect: unknown_op.py:11:
# expect: frobnicate
import pypto.language as pl

@pl.jit
def matmul(a: pl.Tensor[[128, 128], pl.FP16],
           b: pl.Tensor[[128, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.frobnicate(a, b)
    return c
