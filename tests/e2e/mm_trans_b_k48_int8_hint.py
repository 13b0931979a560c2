# b_trans INT8 with K = 48: K is not a multiple of the 32-row ZN box, so AutoTileMatmulL0 leaves it untiled (PH-AT-007); the whole matmul still runs.
# expect-json: PH-AT-007
import pypto.language as pl

@pl.jit
def mm_trans_b_k48_int8_hint(a: pl.Tensor[[32, 48], pl.INT8],
       b: pl.Tensor[[64, 48], pl.INT8],
       c: pl.Out[pl.Tensor[[32, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.INT32)
    return c
