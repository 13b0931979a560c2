# 't = 1' inside an if used to make t the constant 1 everywhere (also where the branch is not taken,
# where Python has no value for it): now t is a variable, and reading it after an if that assigns it
# in one branch only is an error.
# expect: branch_local_read_after.py:13:9: error: 't' is assigned only in a branch of the if at line 11 and read after it
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
    for i in pl.range(2):
        if i > 0:
            t = 1
        r = t * 16
        with pl.at(level=pl.Level.CORE_GROUP):
            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
    return c
