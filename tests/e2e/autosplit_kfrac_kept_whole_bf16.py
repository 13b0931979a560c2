# AutoSplitCores leaves a region whole when K (1000) is not a multiple of the cube fractal: a core's block
# would fit Mat and keep K whole in L0 (PH-AT-007), while on one core AutoTileL1 peels the sub-fractal
# part of K. PH-SC-002 says so; the run is one task of one block and matches the interpreter.
# expect-json: "PH-SC-002 
# expect-json: "block_num":1
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[256, 1000], pl.BF16], b: pl.Tensor[[1000, 256], pl.BF16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
