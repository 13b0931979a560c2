# bench/rt.sh: 200 tasks, each one a [32, 64] FP32 add over its own rows (race-check cost on many small runs)
import pypto.language as pl

@pl.jit
def many(a: pl.Tensor[[6400, 64], pl.FP32], b: pl.Tensor[[6400, 64], pl.FP32],
         c: pl.Out[pl.Tensor[[6400, 64], pl.FP32]]):
    for i in pl.range(200):
        with pl.at(level=pl.Level.CORE_GROUP):
            ta = pl.load(a, [i * 32, 0], [32, 64], target_memory=pl.Mem.Vec)
            tb = pl.load(b, [i * 32, 0], [32, 64], target_memory=pl.Mem.Vec)
            pl.store(pl.add(ta, tb), [i * 32, 0], c)
    return c
