# args: --cores 1
# (--cores 1: the L0 grid of the whole matmul on one core, not the per-core blocks of AutoSplitCores)
import pypto.language as pl

# K = 64 fits L0 whole: the chooser picks a full-K tile smaller than the output, so
# AutoTileMatmulL0 emits nested loops (the outer one owns the stationary panel) and a direct-store grid.
@pl.jit
def matmul(a: pl.Tensor[[256, 64], pl.FP16],
           b: pl.Tensor[[64, 256], pl.FP16],
           c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
