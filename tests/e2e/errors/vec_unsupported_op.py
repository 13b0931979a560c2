# An op of the PyPTO catalogue ptoc does not implement yet: named, with the supported list.
# expect: vec_unsupported_op.py:9:16: error: 'pl.gather' is a PyPTO operation ptoc does not support yet; the vector operations ptoc supports: dim, add sub mul div
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.gather(x)
    return y
