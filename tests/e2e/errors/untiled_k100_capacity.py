# A matmul AutoTileMatmulL0 cannot tile (K = 100 is not a multiple of 16) keeps its whole operands in
# L0 and overflows Left; the capacity error names the untiled matmul, why, and the fix.
# expect: Left buffer usage (106496 bytes) exceeds platform limit (65536 bytes)
# expect: this matmul was left untiled (PH-AT-007): K = 100 is not a multiple of the cube fractal (16); pad K to 112
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[256, 100], pl.FP32],
       b: pl.Tensor[[100, 16], pl.FP32],
       c: pl.Out[pl.Tensor[[256, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
