# Layer norm at the tile level: y = (x - mean) / sqrt(var + eps) * gamma + beta over each row of a
# [16, 256] FP32 block. The statistics are [16, 1] columns (row_sum with a scratch tile, then a
# scalar multiply by 1/N); gamma and beta are [1, 256] rows combined with col_expand_*.
import pypto.language as pl


@pl.jit
def layer_norm(x: pl.Tensor[[16, 256], pl.FP32], gamma: pl.Tensor[[1, 256], pl.FP32],
               beta: pl.Tensor[[1, 256], pl.FP32], y: pl.Out[pl.Tensor[[16, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 256], target_memory=pl.Mem.Vec)
        g = pl.load(gamma, [0, 0], [1, 256], target_memory=pl.Mem.Vec)
        b = pl.load(beta, [0, 0], [1, 256], target_memory=pl.Mem.Vec)
        tmp = pl.create_tile([16, 256], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        mean = pl.mul(pl.row_sum(t, tmp), 0.00390625)
        xc = pl.row_expand_sub(t, mean)
        var = pl.mul(pl.row_sum(pl.mul(xc, xc), tmp), 0.00390625)
        rstd = pl.rsqrt(pl.add(var, 0.00001))
        yn = pl.row_expand_mul(xc, rstd)
        pl.store(pl.col_expand_add(pl.col_expand_mul(yn, g), b), [0, 0], y)
    return y
