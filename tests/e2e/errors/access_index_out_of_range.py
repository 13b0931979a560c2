# Issue 7: a constant element index outside the tensor is a located error naming the tensor and shape.
# expect: access_index_out_of_range.py:9:14: error: tensor.read: index 16 of dimension 0 is outside 'x' tensor [16, 64] FP32 (valid: 0..15)
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        v = x[16, 0]
        y[:] = pl.mul(x, v)
    return y
