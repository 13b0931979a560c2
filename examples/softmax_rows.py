# Row softmax of an FP16 matrix at the tensor level, 32 rows per step: each block is cast to FP32,
# softmaxed and cast back. Inside pl.at ptoc loads each block into Vec, turns the tensor ops into
# vector instructions (pl.sub of a [32, 1] column becomes row_expand_sub) and stores the result.
import pypto.language as pl


@pl.jit
def softmax_rows(x: pl.Tensor[[128, 256], pl.FP16], y: pl.Out[pl.Tensor[[128, 256], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.range(4):
            xb = pl.cast(x[i * 32:i * 32 + 32, :], pl.FP32)
            e = pl.exp(pl.sub(xb, pl.row_max(xb)))
            y[i * 32:i * 32 + 32, :] = pl.cast(pl.div(e, pl.row_sum(e)), pl.FP16)
    return y
