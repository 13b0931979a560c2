# pl.NZ weights under AutoTileMatmulL0's M/N grid: the whole NZ operand is loaded once into Mat and
# the L0 tiles are extracted from it.
import pypto.language as pl


@pl.jit
def nz_grid(a: pl.Tensor[[256, 512], pl.FP16],
            b: pl.Tensor[[512, 256], pl.FP16, pl.NZ],
            c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
