# Odd shape, boundary peels in M and N: M = 200 pads to 208 rows, N = 330 splits into 128 + 128 + 74 columns.
# On one core (--cores 1): the tiles of the whole matrix (split over cores, AutoSplitCores makes an uneven grid).
# args: --cores 1
# expect-json: "M":208,"N":330,"K":128,"m":208,"n":128,"k":128
import pypto.language as pl

@pl.jit
def mm_200x128x330_fp16(a: pl.Tensor[[200, 128], pl.FP16],
       b: pl.Tensor[[128, 330], pl.FP16],
       c: pl.Out[pl.Tensor[[200, 330], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
