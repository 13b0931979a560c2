# INT8 with N = 80 (a Mat box of INT8 is 32 columns, so the Right panel is physically 96 wide): grid 64 + 16.
# expect-json: "M":64,"N":80,"K":128,"m":64,"n":64,"k":128
import pypto.language as pl

@pl.jit
def mm_64x128x80_int8(a: pl.Tensor[[64, 128], pl.INT8],
       b: pl.Tensor[[128, 80], pl.INT8],
       c: pl.Out[pl.Tensor[[64, 80], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
