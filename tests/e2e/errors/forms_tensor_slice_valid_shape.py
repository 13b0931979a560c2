# Issue 9: a valid_shape smaller than a tensor slice would be computed over the whole window (the passes
# lower a tensor slice fully valid): rejected at the call, with the tile-level way out.
# expect: forms_tensor_slice_valid_shape.py:9:14: error: tensor.slice: a valid_shape smaller than the slice is not supported by ptoc yet
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        xs = pl.slice(x, [64, 64], [0, 0], valid_shape=[64, 32])
        y[:, :] = pl.exp(xs)
    return y
