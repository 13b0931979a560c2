# INT8 operands accumulate in INT32 on the cube: an FP32 result is not an ISA pair (it ran, silently).
# expect: matmul_int8_fp32_out.py:11:16: error: tensor.matmul: out_dtype=pl.FP32 is not a result of INT8 x INT8 (the cube accumulates in INT32)
# expect: legal: FP16 x FP16, BF16 x BF16 and FP32 x FP32 accumulate in FP32
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 32], pl.INT8],
      b: pl.Tensor[[32, 32], pl.INT8],
      c: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
