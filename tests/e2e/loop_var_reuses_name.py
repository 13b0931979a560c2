# A loop variable reusing a name that held a float: the loop variable kept the float's type, so the
# pass dumps did not parse back equal (found by make fuzz-parse). It is a new INDEX variable now.
import pypto.language as pl

@pl.jit
def rows(a: pl.Tensor[[32, 64], pl.FP16],
         b: pl.Tensor[[64, 32], pl.FP16],
         c: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
    j = 0.5
    for j in pl.range(2):
        r = j * 16
        with pl.at(level=pl.Level.CORE_GROUP):
            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
    return c
