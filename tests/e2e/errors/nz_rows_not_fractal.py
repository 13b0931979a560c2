# pl.NZ on a tensor whose rows are not whole 16-row fractals: located at the parameter, with the padded shape.
# expect: parameter 'b' ([500, 128] FP16, 128000 bytes) is pl.NZ
# expect: row count 500 is not a multiple of 16; pad it to [512, 128] or drop pl.NZ
# expect: 9 |        b: pl.Tensor[[500, 128], pl.FP16, pl.NZ],
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 500], pl.FP16],
       b: pl.Tensor[[500, 128], pl.FP16, pl.NZ],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
