# A matmul AutoTileMatmulL0 cannot tile (K = 100 is not a multiple of 16) keeps its whole operands in
# L0 and overflows Left; with an FP16 result K cannot be split into chunks (matmul_acc accumulates in
# FP32), so AutoTileL1 cannot take the sub-fractal head off either. The capacity error names the
# untiled matmul, why, and the fix.
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
