# The tile form of a row reduction takes a scratch tile (spec/ops.md §4.6).
# expect: vec_row_reduce_no_tmp.py:10:13: error: tile.row_sum: the tile form takes a scratch tile
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 1], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        a = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        s = pl.row_sum(a)
        pl.store(s, [0, 0], y)
    return y
