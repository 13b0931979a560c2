# Both transposed, INT8.
# expect-json: "M":96,"N":144,"K":512,"m":96,"n":128,"k":256
import pypto.language as pl

@pl.jit
def mm_trans_ab_96x512x144_int8(a: pl.Tensor[[512, 96], pl.INT8],
       b: pl.Tensor[[144, 512], pl.INT8],
       c: pl.Out[pl.Tensor[[96, 144], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, b_trans=True, out_dtype=pl.INT32)
    return c
