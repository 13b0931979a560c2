# INT8 -> INT32 with M = 100 and a K loop (two blocks of 256), narrowed to 100 rows at the store.
# expect-json: "M":112,"N":128,"K":512,"m":112,"n":128,"k":256
import pypto.language as pl

@pl.jit
def mm_100x512x128_int8(a: pl.Tensor[[100, 512], pl.INT8],
       b: pl.Tensor[[512, 128], pl.INT8],
       c: pl.Out[pl.Tensor[[100, 128], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
