# A row reduction cannot be divided between the vector cores by columns: each would sum half a row.
# expect: mixed_lr_row_reduce.py:12:
# expect: pl.split(pl.SplitMode.LEFT_RIGHT) halves this region's vector tiles between the two AIV cores by columns, but a row reduction needs every column
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 128], pl.FP16], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT)]):
        s = pl.matmul(a, b, out_dtype=pl.FP32)
        e = pl.exp(s)
        out[:] = pl.row_expand_div(e, pl.row_sum(e))
    return out
