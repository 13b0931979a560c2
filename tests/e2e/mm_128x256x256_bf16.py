# mm_128x256x256_bf16: C[128, 256] = A[128, 256] @ B[256, 256], BF16 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def mm_128x256x256_bf16(a: pl.Tensor[[128, 256], pl.BF16],
       b: pl.Tensor[[256, 256], pl.BF16],
       c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
