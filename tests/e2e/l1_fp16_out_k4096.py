# Issue 11: an FP16 result of a K = 4096 matmul: the blocks accumulate in FP32 over K chunks like an
# FP32 result, and each block's store converts the accumulator to FP16 (assemble attrs {acc_store}).
# Until 2026-12-01 K stayed whole for such a result: 256 blocks of 16 x 16, 6% cube busy; now 2 blocks of
# 128 x 256, K in chunks of 64 — and this expectation fails if the blocking falls back to that.
# one core: AutoSplitCores would otherwise give each core a block that fits Mat
# args: --cores 1
# expect-json: "PH-L1-001 
# expect-json: L1-tiled into 2 block(s) of 128 x 256
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_fp16_out_k4096(a: pl.Tensor[[256, 4096], pl.FP16], b: pl.Tensor[[4096, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP16)
    return c
