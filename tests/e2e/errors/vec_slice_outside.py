# A tile slice window that leaves its tile.
# expect: vec_slice_outside.py:10:14: error: tile.slice: the window [8, 32] at offset [12, 0] leaves the tile
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[8, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        sl = pl.slice(tx, [8, 32], [12, 0])
        pl.store(sl, [0, 0], y)
    return y
