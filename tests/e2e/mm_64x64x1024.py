# mm_64x64x1024: C[64, 64] = A[64, 1024] @ B[1024, 64], FP16 operands, FP32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def mm_64x64x1024(a: pl.Tensor[[64, 1024], pl.FP16],
       b: pl.Tensor[[1024, 64], pl.FP16],
       c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
