# A matmul result consumed by a vector op in the same region: a mixed kernel (cube -> vector tpush/tpop).
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        s = pl.matmul(a, w, out_dtype=pl.FP32)
        y[:] = pl.exp(s)
    return y
