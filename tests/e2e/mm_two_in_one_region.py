# Two matmuls in one pl.at region share the load of a (one bridge load), and e reuses b's Mat slot.
import pypto.language as pl

@pl.jit
def two(a: pl.Tensor[[128, 256], pl.FP16],
        b: pl.Tensor[[256, 128], pl.FP16],
        e: pl.Tensor[[256, 64], pl.FP16],
        c: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
        d: pl.Out[pl.Tensor[[128, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        d[:] = pl.matmul(a, e, out_dtype=pl.FP32)
    return c, d
