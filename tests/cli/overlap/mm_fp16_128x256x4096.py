# Compute-bound single-core K loop on a2a3 (test_overlap.sh): fp16 128 x 256 x 4096 in the walkthrough rung-3
# form. Per chunk of 256: 192 KiB of loads = 2 x 100 + 196608 / 143.4 = 1571 MTE2 cycles against 2216 cube
# cycles (8 L0 k-steps of 32: 2048 + 8 x 21), so the stage-2 pipeline keeps the cube busy.
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 4096], pl.FP16], b: pl.Tensor[[4096, 256], pl.FP16], c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a[:, 0:256], b[0:256, :], out_dtype=pl.FP32)
        for k in pl.pipeline(1, 16, stage=2):
            k0 = k * 256
            acc = pl.matmul_acc(acc, a[:, k0:k0 + 256], b[k0:k0 + 256, :])
        c[:] = acc
    return c
