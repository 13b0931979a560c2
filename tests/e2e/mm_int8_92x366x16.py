# INT8 with K = 16: the operand tiles hold a partial 16 x 32 (Left) / 32 x 16 (Right) box, which still
# occupies a whole box; M = 92 is padded to 96 rows and N = 366 leaves a 110-wide boundary tile.
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[92, 16], pl.INT8],
       b: pl.Tensor[[16, 366], pl.INT8],
       c: pl.Out[pl.Tensor[[92, 366], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
