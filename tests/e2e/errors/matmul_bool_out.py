# A BOOL matmul result compiled and ran wrong; the cube has no such output.
# expect: matmul_bool_out.py:11:16: error: tensor.matmul: out_dtype=pl.BOOL is not a result of FP16 x FP16
# expect: legal: FP16 x FP16, BF16 x BF16 and FP32 x FP32 accumulate in FP32
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 32], pl.FP16],
      b: pl.Tensor[[32, 32], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 32], pl.BOOL]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.BOOL)
    return c
