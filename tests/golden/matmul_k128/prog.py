# matmul_k128: C[128, 128] = A[128, 128] @ B[128, 128], FP16 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def matmul_k128(a: pl.Tensor[[128, 128], pl.FP16],
       b: pl.Tensor[[128, 128], pl.FP16],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
