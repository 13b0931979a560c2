# not_ computes on INT16 / UINT16 only (spec/ops.md §5.15).
# expect: vec_not_int32.py:9:16: error: tensor.not_: not_ is not supported for INT32 elements ('x' tensor [16, 64] INT32); supported: INT16, UINT16
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.INT32], z: pl.Tensor[[16, 64], pl.INT32], y: pl.Out[pl.Tensor[[16, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.not_(x)
    return y
