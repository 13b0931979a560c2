# A tensor parameter reassigned with a scalar inside a loop: the value carried around the loop had
# two types (the printed program did not parse back: found by make fuzz-parse).
# expect: loop_changes_type.py:10:5: error: 'b' is pl.Tensor[[16, 16], pl.FP16] before this loop but the loop body makes it pl.Scalar[pl.INDEX]
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    for i in pl.range(2):
        b = i * 16
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
