# Issue 7: pl.read needs one index per dimension.
# expect: access_rank_mismatch.py:9:9: error: tile.read: 't' tile [16, 64] FP32 has rank 2 but 1 indices were given (one per dimension)
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    t = pl.load(x, [0, 0], [16, 64])
    v = pl.read(t, [3])
    pl.store(t, [0, 0], y)
    return y
