# matmul_256x256x512: C[256, 256] = A[256, 512] @ B[512, 256], FP16 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def matmul_256x256x512(a: pl.Tensor[[256, 512], pl.FP16],
       b: pl.Tensor[[512, 256], pl.FP16],
       c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
