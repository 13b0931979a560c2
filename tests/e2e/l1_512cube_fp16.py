# Issue 11, AutoTileL1: l1_512cube_fp16 — l1_512cube_fp161
# one core: AutoSplitCores would otherwise give each core a block that fits Mat
# args: --cores 1
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_512cube_fp16(a: pl.Tensor[[512, 512], pl.FP16], b: pl.Tensor[[512, 512], pl.FP16], c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
