# A slice offset computed with '/' is a float (true division): a TypeError in Python, an interpreter
# error at run time before; now an error at the slice.
# expect: float_slice_offset.py:12:41: error: tensor.slice: the offsets must be integers, got a FP32 value
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
    for i in pl.range(2):
        r = i * 16 / 1
        with pl.at(level=pl.Level.CORE_GROUP):
            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
    return c
