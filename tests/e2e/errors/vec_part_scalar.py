# part_* combine two tensors / tiles; there is no scalar form.
# expect: vec_part_scalar.py:9:16: error: tensor.part_add takes two tensors; it has no scalar form (got a FP32 scalar)
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], z: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.part_add(x, 1.0)
    return y
