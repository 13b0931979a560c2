# Issue 11, AutoTileL1: l1_btrans_256x2048x256_fp16 — l1_btrans_256x2048x256_fp161
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_btrans_256x2048x256_fp16(a: pl.Tensor[[256, 2048], pl.FP16], b: pl.Tensor[[256, 2048], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32, b_trans=True)
    return c
