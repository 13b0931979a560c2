# The cube multiplies FP16, BF16, FP32 or INT8 operands only.
# expect: matmul_int32_operands.py:11:16: error: tensor.matmul: the cube does not multiply INT32 operands
# expect: legal: FP16 x FP16, BF16 x BF16 and FP32 x FP32 accumulate in FP32
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 32], pl.INT32],
      b: pl.Tensor[[32, 32], pl.INT32],
      c: pl.Out[pl.Tensor[[32, 32], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
