# The reference GEMM's problem (targets.md §3: hand-written tile-ISA kernel on A3, 24 cores): c = a @ b^T,
# a: m x k, b: n x k, fp16 -> fp32, ND, m = n = k = 7680, written as ONE region; ptoc splits it over the
# cores (AutoSplitCores) and tiles it for L1 (AutoTileL1) by itself. bench/gemm.sh runs it --timing-only.
import pypto.language as pl

@pl.jit
def gemm(a: pl.Tensor[[7680, 7680], pl.FP16], b: pl.Tensor[[7680, 7680], pl.FP16], c: pl.Out[pl.Tensor[[7680, 7680], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
