# Issue 11 slow tier (make test-slow): AutoTileL1 on a 2000 x 1800 x 2040 BF16 -> FP32 matmul (ragged M, N, K), with data, vs the interpreter, race-free.
import pypto.language as pl

@pl.jit
def slow_l1_2000x1800x2040_bf16(a: pl.Tensor[[2000, 2040], pl.BF16], b: pl.Tensor[[2040, 1800], pl.BF16], c: pl.Out[pl.Tensor[[2000, 1800], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
