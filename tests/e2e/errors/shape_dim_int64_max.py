# A dimension of 2^63 - 1 is a (too large) static dimension, not a "dynamic" one.
# expect: parameter 'a' (pl.Tensor[[9223372036854775807, 1], pl.INT8]) needs
# expect: more than the 64.0 GiB of global memory
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[9223372036854775807, 1], pl.INT8],
      b: pl.Tensor[[32, 32], pl.INT8],
      c: pl.Out[pl.Tensor[[32, 32], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(b, b, out_dtype=pl.INT32)
    return c
