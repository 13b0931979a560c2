# A parenthesised 1-tuple target needs a tuple value: the same located error as `x, y = ...`.
# expect: paren_target_not_tuple.py:8:16: error: 1 name on the left needs a tuple of 1 value, such as x.shape of a rank-1 tensor (tuple assignment supports x.shape, literal tuples and pl.yield_)
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[64, 128], pl.FP32], c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        (x,) = pl.add(a, a)
        c[:] = x
    return c
