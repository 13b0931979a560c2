# A variable first assigned inside a loop has no value after it when the loop does not run; reading
# it there was an internal verification error ("used before it is defined").
# expect: loop_local_read_after.py:11:5: error: 't' is assigned inside the loop at line 9 and read after it
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
    for k in pl.range(2):
        t = k + 1
    r = (t - 1) * 16
    with pl.at(level=pl.Level.CORE_GROUP):
        c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
    return c
