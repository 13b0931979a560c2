# sin / cos are FP32-only composites: a located error suggesting pl.cast.
# expect: vec_sin_fp16.py:10:16: error: tensor.sin: sin is computed for FP32 elements only, got
# expect: pl.sin(pl.cast(x, pl.FP32))
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP16], y: pl.Out[pl.Tensor[[16, 64], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.sin(x)
    return y
