# The loop variable is the loop's own; reading it after the loop was an internal verification error.
# expect: loop_var_read_after.py:10:5: error: the loop variable 'k' of the loop at line 8 is read after the loop
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
    for k in pl.range(2):
        pass
    r = k * 16
    with pl.at(level=pl.Level.CORE_GROUP):
        c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
    return c
