# Issue 11, AutoTileL1: l1_atrans_2048x256x128_fp16 — l1_atrans_2048x256x128_fp161
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_atrans_2048x256x128_fp16(a: pl.Tensor[[2048, 256], pl.FP16], b: pl.Tensor[[2048, 128], pl.FP16], c: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32, a_trans=True)
    return c
