# Issue 8, walkthrough rung 3: K = 1024 blocked by hand in chunks of 64 — acc = pl.matmul of the first chunk, then
# pl.pipeline(1, 16, stage=4) of tensor-level pl.matmul_acc on slices inside pl.at (ConvertTensorToTileOps carries the
# Acc tile through the loop), c[:] = acc. AutoTileMatmulL0 tiles inside each chunk.
import pypto.language as pl

@pl.jit
def rung3(a: pl.Tensor[[128, 1024], pl.FP16], b: pl.Tensor[[1024, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a[:, 0:64], b[0:64, :], out_dtype=pl.FP32)
        for k in pl.pipeline(1, 16, stage=4):
            k0 = k * 64
            acc = pl.matmul_acc(acc, a[:, k0:k0 + 64], b[k0:k0 + 64, :])
        c[:] = acc
    return c
