# a_trans INT8: the ZN view boxes M to 32 rows, so M = 100 pads to 128 and the chooser steps m by 32.
# expect-json: "M":128,"N":80,"K":256,"m":128,"n":64,"k":256
import pypto.language as pl

@pl.jit
def mm_trans_a_100x256x80_int8(a: pl.Tensor[[256, 100], pl.INT8],
       b: pl.Tensor[[256, 80], pl.INT8],
       c: pl.Out[pl.Tensor[[100, 80], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.INT32)
    return c
