# K blocked by hand inside pl.at over pl.NZ weights (walkthrough rung 4 with a pl.pipeline over K): the
# window b[k0:k0 + 256, :] of the blocked [1, 8, 32, 16, 16] loads at [0, 0, k0 // 16, 0, 0] (k0 a
# provable multiple of 16), the pipeline clone at (k0 + 256) // 16.
import pypto.language as pl


@pl.jit
def matmul_nz_kloop(a: pl.Tensor[[128, 512], pl.FP16],
                    b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
                    c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for k0 in pl.pipeline(0, 512, 256, stage=2):
            t = pl.matmul(a[:, k0:k0 + 256], b[k0:k0 + 256, :], out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
