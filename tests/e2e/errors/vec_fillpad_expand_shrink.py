# fillpad_expand only grows a tile.
# expect: vec_fillpad_expand_shrink.py:9:16: error: tensor.fillpad_expand: the shape [8, 128] is smaller than the operand
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[8, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.fillpad_expand(x, [8, 128], pl.PadValue.max)
    return y
