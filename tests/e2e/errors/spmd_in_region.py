# pl.spmd inside a pl.at region was silently ignored (the kernel ran once).
# expect: spmd_in_region.py:9:9: error: pl.spmd(...) inside a pl.at region
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        with pl.spmd(4):
            c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
