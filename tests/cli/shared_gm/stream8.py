# One AIV block per 32 rows: two 32 KiB loads, an add, one 32 KiB store (test_shared_gm.sh).
import pypto.language as pl

@pl.jit
def stream(a: pl.Tensor[[256, 256], pl.FP32], b: pl.Tensor[[256, 256], pl.FP32], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    for i in pl.spmd(8):
        r0 = i * 32
        c = pl.assemble(c, pl.add(a[r0:r0 + 32, :], b[r0:r0 + 32, :]), [r0, 0])
    return c
