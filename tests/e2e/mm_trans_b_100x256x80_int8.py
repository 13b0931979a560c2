# b_trans INT8: the ZN view [K, N] boxes K to 32 rows, so the chooser steps k by 32.
# expect-json: "M":112,"N":80,"K":256,"m":112,"n":64,"k":256
import pypto.language as pl

@pl.jit
def mm_trans_b_100x256x80_int8(a: pl.Tensor[[100, 256], pl.INT8],
       b: pl.Tensor[[80, 256], pl.INT8],
       c: pl.Out[pl.Tensor[[100, 80], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.INT32)
    return c
