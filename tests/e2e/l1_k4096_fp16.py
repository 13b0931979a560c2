# Issue 11, AutoTileL1: l1_k4096_fp16 — l1_k4096_fp161
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_k4096_fp16(a: pl.Tensor[[128, 4096], pl.FP16], b: pl.Tensor[[4096, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
