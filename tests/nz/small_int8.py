# [48, 64] x [64, 64] INT8 with a pl.NZ right operand (c0 = 32; tests/cli/test_nz.sh feeds NZ-ordered
# bytes for b).
import pypto.language as pl


@pl.jit
def small_int8(a: pl.Tensor[[48, 64], pl.INT8],
               b: pl.Tensor[[64, 64], pl.INT8, pl.NZ],
               c: pl.Out[pl.Tensor[[48, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
