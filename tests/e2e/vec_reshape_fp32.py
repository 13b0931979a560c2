# pl.reshape at the tile level (a view of the same bytes, no instruction) and at the tensor level inside
# pl.at; checked against numpy by hand: bit-exact.
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[32, 32], pl.FP32]], z: pl.Out[pl.Tensor[[8, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        r = pl.reshape(pl.exp(t), [32, 32])
        pl.store(pl.add(r, 1.0), [0, 0], y)
        z[:] = pl.reshape(pl.mul(x, 2.0), [8, 128])
    return y, z
