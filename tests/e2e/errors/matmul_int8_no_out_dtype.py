# Without out_dtype an INT8 matmul gave an INT8 result (a quantizing store ptoc does not have) and ran wrong.
# expect: matmul_int8_no_out_dtype.py:11:16: error: tensor.matmul: INT8 operands accumulate in INT32; say out_dtype=pl.INT32
# expect: legal: FP16 x FP16, BF16 x BF16 and FP32 x FP32 accumulate in FP32
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 32], pl.INT8],
      b: pl.Tensor[[32, 32], pl.INT8],
      c: pl.Out[pl.Tensor[[32, 32], pl.INT8]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b)
    return c
