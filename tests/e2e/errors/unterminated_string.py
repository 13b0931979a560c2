# A lexical error: the string on line 8 never ends.
# expect: unterminated_string.py:8:
# expect: unterminated string literal
import pypto.language as pl

@pl.jit
def matmul(a: pl.Tensor[[128, 128], pl.FP16], b: pl.Tensor[[128, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="oops):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
