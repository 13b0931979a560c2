# A created tensor's byte size must fit in int64: checked when its type is deduced (at the call),
# not left to wrap in size computations downstream.
# expect: create_shape_overflow.py:8:9: error: tensor.create: the shape is too large
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    t = pl.tensor.create([4294967296, 4294967296], dtype=pl.FP16)
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
