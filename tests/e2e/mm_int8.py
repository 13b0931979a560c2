# mm_int8: C[64, 64] = A[64, 128] @ B[128, 64], INT8 operands, INT32 result (one InCore matmul).
import pypto.language as pl

@pl.jit
def mm_int8(a: pl.Tensor[[64, 128], pl.INT8],
       b: pl.Tensor[[128, 64], pl.INT8],
       c: pl.Out[pl.Tensor[[64, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
