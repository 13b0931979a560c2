# RMS norm: y = x / sqrt(mean(x^2) + eps) * gamma, at the tensor level. The per-row statistic is a
# [32, 1] column and gamma a [1, 128] row: pl.mul with them broadcasts through row_expand_mul and
# col_expand_mul.
import pypto.language as pl


@pl.jit
def rms_norm(x: pl.Tensor[[32, 128], pl.FP32], gamma: pl.Tensor[[1, 128], pl.FP32],
             y: pl.Out[pl.Tensor[[32, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        mean_sq = pl.mul(pl.row_sum(pl.mul(x, x)), 0.0078125)
        rstd = pl.rsqrt(pl.add(mean_sq, 0.000001))
        y[:] = pl.mul(pl.mul(x, rstd), gamma)
    return y
