# A tile view has a static address: a run-time offset is a located error naming the alternative.
# expect: vec_slice_dynamic_offset.py:11:18: error: tile.slice: the offset must be a 2-D list of compile-time constants
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        for i in pl.range(2):
            sl = pl.slice(tx, [8, 32], [i * 8, 0])
            pl.store(sl, [i * 8, 0], y)
    return y
