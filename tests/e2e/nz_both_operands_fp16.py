# Both matmul operands pl.NZ (the left one too is loaded NZ -> NZ into Mat).
import pypto.language as pl


@pl.jit
def nz_both(a: pl.Tensor[[96, 128], pl.FP16, pl.NZ],
            b: pl.Tensor[[128, 80], pl.FP16, pl.NZ],
            c: pl.Out[pl.Tensor[[96, 80], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
