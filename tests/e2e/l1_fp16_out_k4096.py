# Issue 11: an FP16 result of a K = 4096 matmul: K cannot be chunked (matmul_acc accumulates in FP32),
# so AutoTileL1 blocks only M and N, each block over all of K: with two Mat stage buffers, 16 x 16 blocks
# (2 x (16 x 4096 + 4096 x 16) x 2 bytes = 512 KiB) fit. Correct but slow; PH-L1-001 says what was done.
# one core: AutoSplitCores would otherwise give each core a block that fits Mat
# args: --cores 1
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_fp16_out_k4096(a: pl.Tensor[[256, 4096], pl.FP16], b: pl.Tensor[[4096, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP16)
    return c
