# expect: is computed on-chip in this pl.at region
import pypto.language as pl

@pl.jit
def chain(a: pl.Tensor[[128, 128], pl.FP16],
          b: pl.Tensor[[128, 128], pl.FP16],
          e: pl.Tensor[[128, 128], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.matmul(a, b, out_dtype=pl.FP16)
        c[:] = pl.matmul(t, e, out_dtype=pl.FP32)
    return c
