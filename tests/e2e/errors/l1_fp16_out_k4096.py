# Issue 11: an FP16 result of a K = 4096 matmul: K cannot be chunked (matmul_acc accumulates in FP32) and no
# M / N block over all of K fits Mat, so AutoTileL1 keeps it whole (PH-L1-002 says why and how to fix it).
# expect: PH-L1-002
# expect: say out_dtype=pl.FP32
# expect: Mat buffer usage
import pypto.language as pl

@pl.jit
def l1_fp16_out_k4096(a: pl.Tensor[[256, 4096], pl.FP16], b: pl.Tensor[[4096, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP16)
    return c
