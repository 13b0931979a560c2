# The reference GEMM's problem (issue 11): c = a @ b^T, a: m x k, b: n x k, FP16 -> FP32, ND, one
# pl.at region. AutoSplitCores gives it a 4 x 6 grid of 1536 x 1024 blocks on a2a3's 24 cube cores;
# each block's operands (1536 x 6144 and 1024 x 6144 FP16) exceed Mat, so compiling it needs
# AutoTileL1 as well (tests/cli/test_autosplit.sh checks the split's hint only).
import pypto.language as pl


@pl.jit
def gemm(a: pl.Tensor[[6144, 6144], pl.FP16], b: pl.Tensor[[6144, 6144], pl.FP16],
         c: pl.Out[pl.Tensor[[6144, 6144], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gemm"):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
