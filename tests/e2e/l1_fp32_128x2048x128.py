# Issue 11, AutoTileL1: l1_fp32_128x2048x128 — l1_fp32_128x2048x1281
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_fp32_128x2048x128(a: pl.Tensor[[128, 2048], pl.FP32], b: pl.Tensor[[2048, 128], pl.FP32], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
