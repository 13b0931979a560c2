# A tile loaded in one pl.at region and used in the next: tiles live in one kernel's on-chip memory
# (an internal 'has no MemRef' verification error; found by make fuzz-parse).
# expect: tile_across_regions.py:8:9: error: tile 'tb' is used after its pl.at region

@pl.jit
def f(b: pl.Tensor[[48, 48], pl.FP32], c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tb = pl.load(b, [0, 0], [32, 48], target_memory=pl.Mem.Vec)
    with pl.at(level=pl.Level.CORE_GROUP):
        c = pl.store(tb, [0, 0], c)
    return c
