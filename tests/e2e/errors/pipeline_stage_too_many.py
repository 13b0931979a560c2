# Each pipeline stage is a copy of the loop body with its own buffers; stage=64 over 39 chunks made a
# kernel whose memory planning and sync allocation ran for minutes (a make fuzz-parse timeout).
# expect: pipeline_stage_too_many.py:11:19: error: pl.pipeline(stage=64): at most 16 copies of a loop body
import pypto.language as pl

@pl.jit
def matmul(a: pl.Tensor[[128, 9984], pl.FP16],
           b: pl.Tensor[[9984, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for k0 in pl.pipeline(0, 9984, 256, stage=64):
            t = pl.matmul(a[:, k0:k0 + 256], b[k0:k0 + 256, :], out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
