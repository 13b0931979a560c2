# lrelu / prelu / expdif compute on float elements.
# expect: vec_lrelu_int.py:9:16: error: tensor.lrelu: lrelu is not supported for INT16 elements ('x' tensor [16, 64] INT16); supported: FP16, BF16, FP32
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.INT16], z: pl.Tensor[[16, 64], pl.INT16], y: pl.Out[pl.Tensor[[16, 64], pl.INT16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.lrelu(x, 2)
    return y
