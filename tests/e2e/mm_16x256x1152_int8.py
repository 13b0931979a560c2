# Plain-matmul form of issue #2232: INT32 [16, 1152] is 144 KiB physically (32 rows on a2a3), split along N (768 + 384).
# expect-json: "M":16,"N":1152,"K":256,"m":16,"n":768,"k":32
import pypto.language as pl

@pl.jit
def mm_16x256x1152_int8(a: pl.Tensor[[16, 256], pl.INT8],
       b: pl.Tensor[[256, 1152], pl.INT8],
       c: pl.Out[pl.Tensor[[16, 1152], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
