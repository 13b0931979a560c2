# Issue 11, AutoTileL1: l1_fp16_512x2048x256_a5 — l1_fp16_512x2048x256_a51
# args: --target a5
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_fp16_512x2048x256_a5(a: pl.Tensor[[512, 2048], pl.FP16], b: pl.Tensor[[2048, 256], pl.FP16], c: pl.Out[pl.Tensor[[512, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
