# b_trans with an M/N grid and a K loop.
# (--cores 1: the L0 grid of the whole matmul on one core, not the per-core blocks of AutoSplitCores)
# args: --cores 1
# expect-json: "M":256,"N":256,"K":384,"m":128,"n":256,"k":64
import pypto.language as pl

@pl.jit
def mm_trans_b_256x384x256_fp16(a: pl.Tensor[[256, 384], pl.FP16],
       b: pl.Tensor[[256, 384], pl.FP16],
       c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
