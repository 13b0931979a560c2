# K blocked by hand inside pl.at over pl.NZ INT8 weights (c0 = 32): b [128, 64] is blocked as
# [1, 2, 8, 16, 32]; the windows b[k0:k0 + 32, :] load at blocked row k0 // 16. Exact (INT32).
import pypto.language as pl


@pl.jit
def nz_kloop_int8(a: pl.Tensor[[32, 128], pl.INT8],
                  b: pl.Tensor[[128, 64], pl.INT8, pl.NZ],
                  c: pl.Out[pl.Tensor[[32, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for k0 in pl.range(0, 128, 32):
            t = pl.matmul(a[:, k0:k0 + 32], b[k0:k0 + 32, :], out_dtype=pl.INT32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
