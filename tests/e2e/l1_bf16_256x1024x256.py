# Issue 11, AutoTileL1: l1_bf16_256x1024x256 — l1_bf16_256x1024x2561
# one core: AutoSplitCores would otherwise give each core a block that fits Mat
# args: --cores 1
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_bf16_256x1024x256(a: pl.Tensor[[256, 1024], pl.BF16], b: pl.Tensor[[1024, 256], pl.BF16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
