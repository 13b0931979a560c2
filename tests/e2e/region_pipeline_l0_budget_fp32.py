# progfuzz seed 49 (minimised): a pl.pipeline(stage=2) loop inside pl.at around a matmul whose
# operands exactly fill L0 ([32, 256] x [256, 64] FP32: 64 KiB of L0B). LowerPipelineLoops clones
# the body per stage, L0 buffers included, so AutoTileMatmulL0 must choose the L0 tile for half of
# L0A/L0B/L0C; it used all of it: "Right buffer usage (131072 bytes) exceeds platform limit".
# args: --memory-planner dsa_rp
import pypto.language as pl

@pl.jit
def pipe_fp32(a: pl.Tensor[[32, 256], pl.FP32],
              b: pl.Tensor[[256, 64], pl.FP32],
              c: pl.Out[pl.Tensor[[32, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.pipeline(0, 2, 1, stage=2):
            c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
