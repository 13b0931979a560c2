# MemoryReuse: a tile loaded before a loop nest and read in the inner loop stays live to the end of the
# OUTER loop (its second iteration reads it again). Found by progfuzz (seed 986, default,+vec): the
# fill in the outer loop used to take the loaded tile's buffer, and the second pass read 0.5s.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[8, 160], pl.FP32], z: pl.Tensor[[1, 96], pl.FP32], y: pl.Out[pl.Tensor[[8, 160], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.range(2):
            for j in pl.range(1):
                y[:] = pl.add(x, 1.0)
            t = pl.load(z, [0, 0], [1, 96], target_memory=pl.Mem.Vec)
            h = pl.tile.full([4, 96], dtype=pl.FP16, value=0.5)
            y = pl.store(t, [0, 0], y)
    return y
