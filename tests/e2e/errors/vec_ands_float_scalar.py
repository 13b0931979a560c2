# The scalar of ands / ors / xors / shls / shrs must be an integer.
# expect: vec_ands_float_scalar.py:9:16: error: tensor.ands: the scalar operand must be an integer, got a FP32 scalar
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.INT32], z: pl.Tensor[[16, 64], pl.INT32], y: pl.Out[pl.Tensor[[16, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.ands(x, 2.5)
    return y
