# Issue 11's compute-bound single-core example (test_overlap.sh, run with --cores 1): one fp16 matmul of
# 256 x 256 x 4096 written whole; AutoTileL1 blocks it (the operands need 4 MiB of Mat) and AutoTileMatmulL0
# tiles each chunk. The cube must stay >= 90% busy in the model.
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[256, 4096], pl.FP16], b: pl.Tensor[[4096, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
