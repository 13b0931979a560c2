# sels (mask ? src : scalar) at the tensor level (FP32, padded rows) and the tile level with its scratch
# tile (INT32); checked against numpy by hand: bit-exact.
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[16, 40], pl.FP32], y: pl.Out[pl.Tensor[[16, 40], pl.FP32]], z: pl.Out[pl.Tensor[[16, 48], pl.INT32]],
      n: pl.Tensor[[16, 48], pl.INT32]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.sels(pl.cmp(x, 0.0, cmp_type=4), x, -0.5)
        tn = pl.load(n, [0, 0], [16, 48], target_memory=pl.Mem.Vec)
        tmp = pl.create_tile([16, 48], dtype=pl.INT32, target_memory=pl.Mem.Vec)
        pl.store(pl.sels(pl.cmp(tn, 3, cmp_type=2), tn, tmp, 7), [0, 0], z)
    return y, z
