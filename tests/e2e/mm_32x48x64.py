# mm_32x48x64: C[32, 48] = A[32, 64] @ B[64, 48], FP16 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def mm_32x48x64(a: pl.Tensor[[32, 64], pl.FP16],
       b: pl.Tensor[[64, 48], pl.FP16],
       c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
