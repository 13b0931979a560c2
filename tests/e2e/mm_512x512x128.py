# mm_512x512x128: C[512, 512] = A[512, 128] @ B[128, 512], FP16 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def mm_512x512x128(a: pl.Tensor[[512, 128], pl.FP16],
       b: pl.Tensor[[128, 512], pl.FP16],
       c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
