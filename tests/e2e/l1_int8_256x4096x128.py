# Issue 11, AutoTileL1: l1_int8_256x4096x128 — l1_int8_256x4096x1281
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_int8_256x4096x128(a: pl.Tensor[[256, 4096], pl.INT8], b: pl.Tensor[[4096, 128], pl.INT8], c: pl.Out[pl.Tensor[[256, 128], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
