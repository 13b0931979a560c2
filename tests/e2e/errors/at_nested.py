# A pl.at region inside another one: the outer region already becomes the kernel.
# expect: at_nested.py:9:9: error: nested 'with pl.at(...)': the region at line 8 already becomes a kernel
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
