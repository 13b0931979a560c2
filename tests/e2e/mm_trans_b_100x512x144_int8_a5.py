# b_trans INT8 on a5, K-tiled in steps of 32-row ZN boxes.
# expect-json: "M":112,"N":144,"K":512,"m":112,"n":144,"k":192
# args: --target a5
import pypto.language as pl

@pl.jit
def mm_trans_b_100x512x144_int8_a5(a: pl.Tensor[[100, 512], pl.INT8],
       b: pl.Tensor[[144, 512], pl.INT8],
       c: pl.Out[pl.Tensor[[100, 144], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.INT32)
    return c
