# mm_fp32: C[64, 64] = A[64, 128] @ B[128, 64], FP32 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def mm_fp32(a: pl.Tensor[[64, 128], pl.FP32],
       b: pl.Tensor[[128, 64], pl.FP32],
       c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
