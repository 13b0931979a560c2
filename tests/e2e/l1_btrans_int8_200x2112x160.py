# Issue 11, AutoTileL1: l1_btrans_int8_200x2112x160 — l1_btrans_int8_200x1056x1601
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_btrans_int8_200x2112x160(a: pl.Tensor[[200, 2112], pl.INT8], b: pl.Tensor[[160, 2112], pl.INT8], c: pl.Out[pl.Tensor[[200, 160], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32, b_trans=True)
    return c
