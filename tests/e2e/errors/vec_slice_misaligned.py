# A tile slice whose column offset is not a whole number of 32-byte blocks: rows of the view would
# not start on the boundary the vector unit needs.
# expect: vec_slice_misaligned.py:12:14: error: tile.slice: column offset 4 of FP32 elements is 16 bytes into each row
# expect: a column offset a multiple of 8
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        sl = pl.slice(tx, [8, 16], [0, 4])
        pl.store(pl.exp(sl), [0, 0], y)
    return y
