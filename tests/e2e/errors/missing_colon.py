# A syntax error: the with statement on line 9 has no colon.
# expect: missing_colon.py:9:
import pypto.language as pl

@pl.jit
def matmul(a: pl.Tensor[[128, 128], pl.FP16],
           b: pl.Tensor[[128, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP)
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
