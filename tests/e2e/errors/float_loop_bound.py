# range(2.0) is a TypeError in Python; the interpreter ran the loop while the runtime refused it after
# the whole compile. Now an error where the bound is written.
# expect: float_loop_bound.py:9:23: error: loop bounds must be integers, got a FP32 value
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
    for i in pl.range(2.0):
        r = i * 16
        with pl.at(level=pl.Level.CORE_GROUP):
            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
    return c
