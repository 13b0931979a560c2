# cmp / cmps / sel at the tensor level on a padded [16, 40] FP32 block (rows of 160 bytes, 192 in UB), the
# mask stored too; checked against numpy by hand (NaN and equal elements included): bit-exact.
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[16, 40], pl.FP32], y: pl.Tensor[[16, 40], pl.FP32], z: pl.Out[pl.Tensor[[16, 40], pl.FP32]],
      w: pl.Out[pl.Tensor[[16, 40], pl.FP32]], m: pl.Out[pl.Tensor[[16, 32], pl.UINT8]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        mask = pl.cmp(x, y, cmp_type=2)
        z[:] = pl.sel(mask, x, y)
        w[:] = pl.sel(pl.cmp(x, 0.25, cmp_type=4), x, pl.mul(x, 0.125))
        m[:] = mask
    return z, w, m
