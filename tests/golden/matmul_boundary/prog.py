# args: --cores 1
# (--cores 1: the L0 grid of the whole matmul on one core, not the per-core blocks of AutoSplitCores)
import pypto.language as pl

# 320 x 320 x 64 BF16: the chooser picks (160, 128, 64); 320 = 2 x 128 + 64, so the grid peels a
# 64-wide boundary column of tiles after the pipelined inner loop.
@pl.jit
def matmul(a: pl.Tensor[[320, 64], pl.BF16],
           b: pl.Tensor[[64, 320], pl.BF16],
           c: pl.Out[pl.Tensor[[320, 320], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
