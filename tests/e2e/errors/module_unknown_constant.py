# A module constant whose value ptoc cannot evaluate, read in a shape: the error names the
# assignment line and why.
# expect: module_unknown_constant.py:12:65: error: module constant 'COLS' (line 8) has no value ptoc can evaluate
# expect: 'len(...)' is not a constant expression
# expect: -D COLS=VALUE
import pypto.language as pl

COLS = len([1, 2, 3]) * 32


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, COLS], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 64])
        pl.store(t, [0, 0], y)
    return y
