# Tensor level: pl.cast(c, FP16, mode="rint") between two matmuls of one pl.at, the producer K-looped (K = 256).
import pypto.language as pl

@pl.jit
def chain(a: pl.Tensor[[128, 256], pl.FP16],
          b: pl.Tensor[[256, 128], pl.FP16],
          e: pl.Tensor[[128, 64], pl.FP16],
          d: pl.Out[pl.Tensor[[128, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c = pl.matmul(a, b, out_dtype=pl.FP32)
        cb = pl.cast(c, pl.FP16, mode="rint")
        d[:] = pl.matmul(cb, e, out_dtype=pl.FP32)
    return d
