# AutoTileL1's tight budget (two Mat stage buffers, the whole L0C for the carried accumulator) is used only
# for uniform blocks and chunks; a ragged N block (100 x 160 and a 100 x 140 tail) and K = 2000 keep the
# conservative one (the head chunk's own buffers), which fits.
# args: --cores 1
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[100, 2000], pl.BF16], b: pl.Tensor[[2000, 300], pl.BF16], c: pl.Out[pl.Tensor[[100, 300], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
