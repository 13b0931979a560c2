# Issue 11, AutoTileL1: ragged BF16 on a5 (tail blocks in M and N, a sub-fractal K head).
# args: --target a5
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_ragged_bf16_200x136x3000_a5(a: pl.Tensor[[200, 3000], pl.BF16], b: pl.Tensor[[3000, 136], pl.BF16], c: pl.Out[pl.Tensor[[200, 136], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
