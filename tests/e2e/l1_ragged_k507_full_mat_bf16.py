# Issue 11, found by a random sweep: K = 507 (ragged) whose BF16 operands fill Mat exactly (278,528 +
# 245,760 = 524,288 bytes) and overflow L0A whole. AutoTileL1 counted the matmul's own operands among the
# function's other (whole) matmuls, found Mat full and silently left it untiled: a Left capacity error.
# Now it is blocked like any ragged-K matmul.
# args: --cores 1
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[268, 507], pl.BF16], b: pl.Tensor[[507, 236], pl.BF16], c: pl.Out[pl.Tensor[[268, 236], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
