# Issue 11, AutoTileL1: two overflowing matmuls in one region (one sharing the left operand), each blocked
# on its own; both results right and race-free.
# expect-json: "PH-L1-001 
# expect-json: "races":0
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_two_big_fp16(a: pl.Tensor[[256, 2048], pl.FP16], b: pl.Tensor[[2048, 128], pl.FP16], e: pl.Tensor[[2048, 192], pl.FP16],
                    c: pl.Out[pl.Tensor[[256, 128], pl.FP32]], d: pl.Out[pl.Tensor[[256, 192], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        d[:] = pl.matmul(a, e, out_dtype=pl.FP32)
    return c, d
