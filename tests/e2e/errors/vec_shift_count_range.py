# A constant shift count outside [0, bits of the element type) is rejected (undefined upstream).
# expect: vec_shift_count_range.py:9:16: error: tensor.shls: the shift count 16 is outside [0, 16) for the INT16 elements of 'x' tensor [16, 64] INT16
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.INT16], z: pl.Tensor[[16, 64], pl.INT16], y: pl.Out[pl.Tensor[[16, 64], pl.INT16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.shls(x, 16)
    return y
