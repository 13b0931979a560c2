# Bit operations take integer elements only; the message lists the supported dtypes.
# expect: vec_bitwise_float.py:9:16: error: tensor.and_: and_ is not supported for FP32 elements ('x' tensor [16, 64] FP32); supported: INT8, INT16, INT32, UINT8, UINT16, UINT32
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], z: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.and_(x, z)
    return y
