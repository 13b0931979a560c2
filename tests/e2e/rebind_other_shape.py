# A name rebound to a value of another shape (Python allows it): before ConvertToSSA the one Var of
# the name keeps its first type, and the dump 00_frontend.py annotated the second assignment with it,
# so the printed program did not parse back (found by make fuzz-parse). The annotation is the
# value's type now.
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 64], pl.FP16],
      b: pl.Tensor[[64, 48], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    x = a[0:16, :]
    x = a
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(x, b, out_dtype=pl.FP32)
    return c
