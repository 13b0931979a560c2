# A misspelt pl.at option (name_xint) was silently ignored.
# expect: at_unknown_option.py:8:43: error: pl.at has no option 'name_xint' (options: level, name_hint, optimizations, deps)
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_xint="top"):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
