# a_trans INT8 on a5.
# expect-json: "M":128,"N":80,"K":256,"m":128,"n":80,"k":256
# args: --target a5
import pypto.language as pl

@pl.jit
def mm_trans_a_100x256x80_int8_a5(a: pl.Tensor[[256, 100], pl.INT8],
       b: pl.Tensor[[256, 80], pl.INT8],
       c: pl.Out[pl.Tensor[[100, 80], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.INT32)
    return c
