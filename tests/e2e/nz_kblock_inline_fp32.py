# K blocked by hand inside pl.at over a pl.NZ FP32 operand: c0 = 8, so b [64, 48] is blocked as
# [1, 6, 4, 16, 8]; the two windows b[0:32, :] and b[32:64, :] load at blocked row offsets 0 and 2.
import pypto.language as pl


@pl.jit
def nz_kblock_fp32(a: pl.Tensor[[32, 64], pl.FP32],
                   b: pl.Tensor[[64, 48], pl.FP32, pl.NZ],
                   c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t0 = pl.matmul(a[:, 0:32], b[0:32, :], out_dtype=pl.FP32)
        c = pl.assemble(c, t0, [0, 0], atomic=pl.AtomicType.Add)
        t1 = pl.matmul(a[:, 32:64], b[32:64, :], out_dtype=pl.FP32)
        c = pl.assemble(c, t1, [0, 0], atomic=pl.AtomicType.Add)
    return c
