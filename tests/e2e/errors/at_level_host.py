# Only CORE_GROUP regions are compiled; another level was a runtime error "scope kind 4" after the
# whole compile, or silently ignored inside a region.
# expect: at_level_host.py:9:5: error: pl.at(level=pl.Level.HOST) is not supported
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.HOST):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
