# Issue 6 item 2: a pl.parallel loop inside pl.at writing column blocks of an Out tensor (INT8 -> INT32).
import pypto.language as pl

@pl.jit
def cols_i8(a: pl.Tensor[[32, 64], pl.INT8],
            b: pl.Tensor[[64, 96], pl.INT8],
            c: pl.Out[pl.Tensor[[32, 96], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for j in pl.parallel(3):
            c[:, j * 32:j * 32 + 32] = pl.matmul(a, b[:, j * 32:j * 32 + 32], out_dtype=pl.INT32)
    return c
