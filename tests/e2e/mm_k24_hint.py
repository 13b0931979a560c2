# K = 24 is not a multiple of the cube fractal: AutoTileMatmulL0 leaves it untiled with perf hint PH-AT-007.
import pypto.language as pl

@pl.jit
def mm_k24(a: pl.Tensor[[32, 24], pl.FP16],
        b: pl.Tensor[[24, 32], pl.FP16],
        c: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
