# Issue 11, AutoTileL1: an FP16 result (out_dtype=pl.FP16) cannot be carried through matmul_acc, so K stays one
# one core: AutoSplitCores would otherwise give each core a block that fits Mat
# args: --cores 1
# chunk and only M / N are blocked (blocks of all of K within Mat).
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_fp16_out_256x1024x256(a: pl.Tensor[[256, 1024], pl.FP16], b: pl.Tensor[[1024, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP16)
    return c
