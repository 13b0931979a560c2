# A column reduction cannot be divided between the vector cores by rows.
# expect: column reduction needs every row
# expect: drop the split
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 128], pl.FP16], out: pl.Out[pl.Tensor[[1, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        s = pl.matmul(a, b, out_dtype=pl.FP32)
        out[:] = pl.col_sum(s)
    return out
