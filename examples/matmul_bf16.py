# matmul_bf16: C[128, 128] = A[128, 512] @ B[512, 128], BF16 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def matmul_bf16(a: pl.Tensor[[128, 512], pl.BF16],
       b: pl.Tensor[[512, 128], pl.BF16],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
