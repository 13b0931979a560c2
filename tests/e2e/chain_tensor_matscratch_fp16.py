# Tensor level: an FP16 out_dtype intermediate [256, 256] over L0C feeding a matmul: Mat-scratch grid.
import pypto.language as pl

@pl.jit
def chain(a: pl.Tensor[[256, 64], pl.FP16],
          b: pl.Tensor[[64, 256], pl.FP16],
          e: pl.Tensor[[256, 64], pl.FP16],
          d: pl.Out[pl.Tensor[[256, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.matmul(a, b, out_dtype=pl.FP16)
        d[:] = pl.matmul(t, e, out_dtype=pl.FP32)
    return d
