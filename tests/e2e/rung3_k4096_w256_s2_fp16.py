# Issue 8, walkthrough rung 3: K = 4096 blocked by hand in chunks of 256 — acc = pl.matmul of the first chunk, then
# pl.pipeline(1, 16, stage=2) of tensor-level pl.matmul_acc on slices inside pl.at (ConvertTensorToTileOps carries the
# Acc tile through the loop), c[:] = acc. AutoTileMatmulL0 tiles inside each chunk.
import pypto.language as pl

@pl.jit
def rung3(a: pl.Tensor[[128, 4096], pl.FP16], b: pl.Tensor[[4096, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a[:, 0:256], b[0:256, :], out_dtype=pl.FP32)
        for k in pl.pipeline(1, 16, stage=2):
            k0 = k * 256
            acc = pl.matmul_acc(acc, a[:, k0:k0 + 256], b[k0:k0 + 256, :])
        c[:] = acc
    return c
