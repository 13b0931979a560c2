# A Latin-1 byte (0xe9) in a comment: Python rejects a source that is not UTF-8, so do we, at the byte.
# expect: not_utf8.py:5:6: error: byte 0xe9 is not UTF-8
import pypto.language as pl

# café au lait
@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
