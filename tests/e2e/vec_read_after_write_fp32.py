# A vector op reading an output the same kernel just wrote (y, then y + 1 into z): the load of y must
# come after the store (it was an entry load of a value not yet defined: internal verification error).
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]], z: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.exp(x)
        z[:] = pl.add(y, 1.0)
    return y, z
