# The tile-level store as a statement (it does not rebind y) followed by a tensor-level read of y: the
# Vec load of y is placed after the store, so the read sees the stored values.
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        pl.store(pl.exp(t), [0, 0], y)
        y[:] = pl.add(y, 1.0)
    return y
