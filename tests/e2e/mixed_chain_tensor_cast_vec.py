# A matmul result cast and fed to a vector op in one pl.at: a mixed kernel (AIC + AIV, the cast on the vector side).
import pypto.language as pl

@pl.jit
def chain(a: pl.Tensor[[128, 64], pl.FP16],
          b: pl.Tensor[[64, 128], pl.FP16],
          d: pl.Out[pl.Tensor[[128, 128], pl.BF16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c = pl.matmul(a, b, out_dtype=pl.FP32)
        cb = pl.cast(c, pl.BF16, mode="rint")
        d[:] = pl.add(cb, cb)
    return d
