# Nested pipelines multiply their copies of the body: 8 x 4 = 32 of them.
# expect: pipeline_nested_stages.py:11:23: error: pl.pipeline(stage=4) inside another pl.pipeline multiplies the stages
import pypto.language as pl

@pl.jit
def matmul(a: pl.Tensor[[128, 4096], pl.FP16],
           b: pl.Tensor[[4096, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for k1 in pl.pipeline(0, 4096, 512, stage=8):
            for k0 in pl.pipeline(0, 512, 128, stage=4):
                t = pl.matmul(a[:, k1 + k0:k1 + k0 + 128], b[k1 + k0:k1 + k0 + 128, :], out_dtype=pl.FP32)
                c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
