# Issue 11, AutoTileL1: two matmuls in one region, one overflowing Mat: its chunks get the Mat the other (kept whole)
# leaves (512 KiB - 128 KiB), and both results are right.
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_beside_whole_fp16(a: pl.Tensor[[128, 4096], pl.FP16], b: pl.Tensor[[4096, 128], pl.FP16], x: pl.Tensor[[128, 256], pl.FP16], y: pl.Tensor[[256, 128], pl.FP16],
        c: pl.Out[pl.Tensor[[128, 128], pl.FP32]], d: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        d[:] = pl.matmul(x, y, out_dtype=pl.FP32)
    return c, d
