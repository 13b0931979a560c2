# M = 212 is not a multiple of the 16-row box: the left operand and the accumulators are padded
# to 224 rows and the stores write only the valid rows.
import pypto.language as pl

@pl.jit
def mm_padded(a: pl.Tensor[[212, 64], pl.FP16],
       b: pl.Tensor[[64, 300], pl.FP16],
       c: pl.Out[pl.Tensor[[212, 300], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
