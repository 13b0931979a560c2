# stage=16 over a loop of 4 chunks: every L0 tile was cut to 1/16 of L0 (the pass divided by the
# stage count, not by the clones the loop can have), the kernel grew to thousands of 16 x 16 x 16
# matmuls and compiling took minutes (the sync id allocation). 4 iterations give at most 4 clones.
import pypto.language as pl

K = 1024
KS = 256

@pl.jit
def matmul(a: pl.Tensor[[128, K], pl.FP16],
           b: pl.Tensor[[K, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_kernel"):
        for k0 in pl.pipeline(0, K, KS, stage=16):
            t = pl.matmul(a[:, k0:k0 + KS], b[k0:k0 + KS, :], out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
