# progfuzz seed 49, FP16 with the ptoas planner: a pl.pipeline(stage=2) loop inside pl.at over row blocks; each block's
# matmul [64, 512] x [512, 64] exactly fills L0A and L0B, so each pipeline clone must get half of L0.
# args: --memory-planner ptoas
import pypto.language as pl

@pl.jit
def pipe_rows(a: pl.Tensor[[128, 512], pl.FP16],
              b: pl.Tensor[[512, 64], pl.FP16],
              c: pl.Out[pl.Tensor[[128, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.pipeline(0, 2, 1, stage=2):
            c[i * 64:i * 64 + 64, :] = pl.matmul(a[i * 64:i * 64 + 64, :], b, out_dtype=pl.FP32)
    return c
