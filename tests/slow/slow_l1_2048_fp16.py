# Issue 11 slow tier (make test-slow): AutoTileL1 on a 2048 x 2048 x 2048 FP16 -> FP32 matmul, with data, vs the interpreter, race-free.
import pypto.language as pl

@pl.jit
def slow_l1_2048_fp16(a: pl.Tensor[[2048, 2048], pl.FP16], b: pl.Tensor[[2048, 2048], pl.FP16], c: pl.Out[pl.Tensor[[2048, 2048], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
