# Plain-matmul form of issue #2232: INT32 [16, 1152] from INT8 operands, split along N by the M/N grid.
import pypto.language as pl

@pl.jit
def mm_16x1152(a: pl.Tensor[[16, 64], pl.INT8],
               b: pl.Tensor[[64, 1152], pl.INT8],
               c: pl.Out[pl.Tensor[[16, 1152], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
