# FP32 operands, [256, 256] FP32 result over L0C: an M/N grid (the a2a3 chooser picks 128 x 256 x 32).
# (--cores 1: the L0 grid of the whole matmul on one core, not the per-core blocks of AutoSplitCores)
# args: --cores 1
# expect-json: "M":256,"N":256,"K":256,"m":128,"n":256,"k":32
import pypto.language as pl

@pl.jit
def mm_256x256x256_fp32(a: pl.Tensor[[256, 256], pl.FP32],
       b: pl.Tensor[[256, 256], pl.FP32],
       c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
