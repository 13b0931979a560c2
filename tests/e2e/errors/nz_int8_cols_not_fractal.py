# INT8 NZ fractals are 16 x 32 (c0 = 32 B / 1 B): 48 columns do not tile.
# expect: parameter 'b' ([512, 48] INT8, 24576 bytes) is pl.NZ
# expect: c0 = 32 columns (32 bytes of INT8): its column count 48 is not a multiple of 32; pad it to [512, 64]
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 512], pl.INT8],
       b: pl.Tensor[[512, 48], pl.INT8, pl.NZ],
       c: pl.Out[pl.Tensor[[128, 48], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
