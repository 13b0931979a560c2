# M = 20 with a K loop: the left operand is padded to 32 rows; the Acc is narrowed to 20 valid rows only after the loop.
# expect-json: "M":32,"N":96,"K":1024,"m":32,"n":96,"k":128
import pypto.language as pl

@pl.jit
def mm_20x1024x96_fp16(a: pl.Tensor[[20, 1024], pl.FP16],
       b: pl.Tensor[[1024, 96], pl.FP16],
       c: pl.Out[pl.Tensor[[20, 96], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
