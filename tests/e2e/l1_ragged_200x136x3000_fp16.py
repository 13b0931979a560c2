# Issue 11, AutoTileL1: l1_ragged_200x136x3000_fp16 — l1_ragged_200x136x3000_fp161
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_ragged_200x136x3000_fp16(a: pl.Tensor[[200, 3000], pl.FP16], b: pl.Tensor[[3000, 136], pl.FP16], c: pl.Out[pl.Tensor[[200, 136], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
