import pypto.language as pl

@pl.jit
def f(b: pl.Tensor[[48, 48], pl.FP32], c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tb = pl.load(b, [0, 0], [32, 48], target_memory=pl.Mem.Vec)
    with pl.at(level=pl.Level.CORE_GROUP):
        for k0 in pl.range(2):
            tb = pl.load(b, [0, 0], [32, 48], target_memory=pl.Mem.Vec)
        c = pl.store(tb, [0, 0], c)
    return c
