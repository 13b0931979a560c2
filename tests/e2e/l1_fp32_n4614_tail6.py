# Issue 11, found by a random sweep: FP32 N = 4614 leaves a tail of 6 columns after every power-of-two
# block and after its balanced sizes too (below the cube minimum of 16, so no such tail block can be
# tiled), and an FP32 L0 block is at most 256 wide, so no blocking was found (PH-L1-002, Mat capacity
# error). The chooser now also tries one alignment step below such a block (240: a tail of 54).
# args: --cores 1
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[32, 4614], pl.FP32], c: pl.Out[pl.Tensor[[64, 4614], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
