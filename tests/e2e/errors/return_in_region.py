# 'return' inside a pl.at region ended up in the outlined kernel, whose printed form did not parse
# back (an internal round-trip error). Found by make fuzz-parse.
# expect: return_in_region.py:11:9: error: 'return' inside a pl.at region (line 9)
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
        return c
