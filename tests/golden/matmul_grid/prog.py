# args: --cores 1
# (--cores 1: the L0 grid of the whole matmul on one core, not the per-core blocks of AutoSplitCores)
# M/N grid: the 512 x 512 FP32 result does not fit L0C, so AutoTileMatmulL0 emits a direct-store grid.
import pypto.language as pl

@pl.jit
def mm_grid(a: pl.Tensor[[512, 128], pl.FP16],
            b: pl.Tensor[[128, 512], pl.FP16],
            c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
