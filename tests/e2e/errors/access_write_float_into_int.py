# Issue 7: writing a float value into an integer tensor element is refused with the fix (a cast).
# expect: access_write_float_into_int.py:8:5: error: tensor.write: writing a FP32 value into 'n' tensor [1, 8] INT32 would truncate it; convert it with pl.cast(value, pl.INT32)
import pypto.language as pl


@pl.jit
def f(n: pl.Out[pl.Tensor[[1, 8], pl.INT32]]):
    n[0, 1] = 2.5
    return n
