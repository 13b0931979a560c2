# pl.NZ INT8 weights: c0 = 32 (a fractal is 16 x 32 bytes), b [64, 96] blocked as [1, 3, 4, 16, 32];
# INT32 accumulation is exact, so the comparison is exact.
import pypto.language as pl


@pl.jit
def nz_int8(a: pl.Tensor[[48, 64], pl.INT8],
            b: pl.Tensor[[64, 96], pl.INT8, pl.NZ],
            c: pl.Out[pl.Tensor[[48, 96], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
