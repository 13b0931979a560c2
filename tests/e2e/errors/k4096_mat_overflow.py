# K = 4096: both Mat operands (2 x 1 MiB) exceed L1 (512 KiB) and --no-auto-l1 turns AutoTileL1 off (tests/e2e/l1_k4096_fp16.py: the same program without the flag runs).
# args: --no-auto-l1
# expect: Mat buffer usage (2097152 bytes) exceeds platform limit (524288 bytes)
# expect: matmul_incore_0
import pypto.language as pl

@pl.jit
def matmul(a: pl.Tensor[[128, 4096], pl.FP16],
           b: pl.Tensor[[4096, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
