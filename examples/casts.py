# Casts between element types, with rounding modes: FP32 to FP16 (round: ties away from zero), to
# BF16 (rint: ties to even), to INT32 (floor), and INT32 back to FP32.
import pypto.language as pl


@pl.jit
def casts(x: pl.Tensor[[16, 64], pl.FP32], h: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
          b: pl.Out[pl.Tensor[[16, 64], pl.BF16]], i: pl.Out[pl.Tensor[[16, 64], pl.INT32]],
          f: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        pl.store(pl.cast(t, pl.FP16), [0, 0], h)
        pl.store(pl.cast(t, pl.BF16, mode="rint"), [0, 0], b)
        n = pl.cast(pl.mul(t, 8.0), pl.INT32, mode="floor")
        pl.store(n, [0, 0], i)
        pl.store(pl.cast(n, pl.FP32), [0, 0], f)
    return h, b, i, f
