# INT8 with N = 80 (the Right panel boxes to 96 columns in Mat), plain matmul at tensor level.
import pypto.language as pl

@pl.jit
def mm_64x80(a: pl.Tensor[[64, 128], pl.INT8],
             b: pl.Tensor[[128, 80], pl.INT8],
             c: pl.Out[pl.Tensor[[64, 80], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
