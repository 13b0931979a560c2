# a_trans INT8 with M = 8: padded to one 32-row ZN box.
# expect-json: "M":32,"N":48,"K":64,"m":32,"n":48,"k":64
import pypto.language as pl

@pl.jit
def mm_trans_a_8x64x48_int8(a: pl.Tensor[[64, 8], pl.INT8],
       b: pl.Tensor[[64, 48], pl.INT8],
       c: pl.Out[pl.Tensor[[8, 48], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.INT32)
    return c
