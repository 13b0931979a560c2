# A bare 'return' before 'return c': the function's return types came from the last one, so the
# first did not match them and the printed program did not parse back (found by make fuzz-parse).
# expect: inconsistent_returns.py:12:5: error: 'f' returns 1 value here but 0 at line 11
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return
    return c
