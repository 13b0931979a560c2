# Compute-bound single-core K loop on a2a3 (test_overlap.sh): fp32 128 x 128 x 4096 in the walkthrough
# rung-3 form, K chunks of 256 under pl.pipeline(1, 16, stage=2). Per chunk the cube needs ~4096 cycles and
# MTE2 ~3344 (256 KiB at 78.4 B/cycle), so with the loads of chunk i+1 overlapping the matmuls of chunk i
# the cube is busy nearly all the time.
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 4096], pl.FP32], b: pl.Tensor[[4096, 128], pl.FP32], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a[:, 0:256], b[0:256, :], out_dtype=pl.FP32)
        for k in pl.pipeline(1, 16, stage=2):
            k0 = k * 256
            acc = pl.matmul_acc(acc, a[:, k0:k0 + 256], b[k0:k0 + 256, :])
        c[:] = acc
    return c
