# A matmul that fits Mat but whose K = 100 is not a multiple of the cube fractal (16): AutoTileMatmulL0
# cannot tile it, and whole it would overflow L0A (256 x 112 FP32 = 114,688 bytes of 65,536). AutoTileL1
# blocks it like an overflowing one — a 4-element sub-fractal K head as its own small matmul, then
# fractal-aligned chunks — and says so. Must match the interpreter, race-free.
# expect-json: "PH-L1-001
# expect-json: K is not a multiple of 16 (the cube fractal), so AutoTileMatmulL0 cannot tile it
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[256, 100], pl.FP32],
       b: pl.Tensor[[100, 16], pl.FP32],
       c: pl.Out[pl.Tensor[[256, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
