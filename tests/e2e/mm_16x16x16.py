# mm_16x16x16: C[16, 16] = A[16, 16] @ B[16, 16], FP16 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def mm_16x16x16(a: pl.Tensor[[16, 16], pl.FP16],
       b: pl.Tensor[[16, 16], pl.FP16],
       c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
