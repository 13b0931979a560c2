# A matmul AutoTileMatmulL0 cannot tile (K = 100 is not a multiple of 16) keeps its whole operands in
# L0 and overflows Left; with AutoTileL1 off (which would otherwise block it, the sub-fractal K head a
# matmul of its own: tests/e2e/l1_ragged_k100_fp16_out.py) the capacity error names the untiled matmul,
# why, and the fix.
# args: --no-auto-l1
# expect: Left buffer usage (114688 bytes) exceeds platform limit (65536 bytes)
# expect: this matmul was left untiled (PH-AT-007): K = 100 is not a multiple of the cube fractal (16); pad K to 112
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[512, 100], pl.FP16],
       b: pl.Tensor[[100, 16], pl.FP16],
       c: pl.Out[pl.Tensor[[512, 16], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP16)
    return c
