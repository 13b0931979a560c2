# name_hint names the kernel function; "s/cond" made the printed program unparseable (an internal
# round-trip error). Found by make fuzz-parse.
# expect: name_hint_not_identifier.py:9:53: error: name_hint "s/cond" names the kernel function, so it must be a Python identifier
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="s/cond"):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
