# Column windows of pl.NZ weights, one task per window: b[:, j * 32:j * 32 + 32] starts at a column
# that is a run-time multiple of c0 = 16 (blocked column offset j * 32 // 16).
import pypto.language as pl


@pl.jit
def nz_colblock(a: pl.Tensor[[64, 128], pl.BF16],
                b: pl.Tensor[[128, 96], pl.BF16, pl.NZ],
                c: pl.Out[pl.Tensor[[64, 96], pl.FP32]]):
    for j in pl.range(3):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[:, j * 32:j * 32 + 32] = pl.matmul(a, b[:, j * 32:j * 32 + 32], out_dtype=pl.FP32)
    return c
