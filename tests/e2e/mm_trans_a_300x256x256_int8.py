# a_trans INT8 with an M/N grid: M = 300 pads to 320 (32-row ZN boxes); every M tile is a multiple of 32 rows.
# (--cores 1: the L0 grid of the whole matmul on one core, not the per-core blocks of AutoSplitCores)
# args: --cores 1
# expect-json: "M":320,"N":256,"K":256,"m":64,"n":256,"k":256
import pypto.language as pl

@pl.jit
def mm_trans_a_300x256x256_int8(a: pl.Tensor[[256, 300], pl.INT8],
       b: pl.Tensor[[256, 256], pl.INT8],
       c: pl.Out[pl.Tensor[[300, 256], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.INT32)
    return c
