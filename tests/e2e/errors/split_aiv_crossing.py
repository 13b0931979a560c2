# expect: a region with pl.split_aiv loops may not pass tiles between the cube and the vector cores
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 128], pl.FP16], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            y[:] = pl.exp(acc)
    return y
