# A row-major left operand with M = 100 (padded to the 16-row box) times a pl.NZ right operand.
import pypto.language as pl


@pl.jit
def nz_padded(a: pl.Tensor[[100, 256], pl.FP16],
              b: pl.Tensor[[256, 64], pl.FP16, pl.NZ],
              c: pl.Out[pl.Tensor[[100, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
