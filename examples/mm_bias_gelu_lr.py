# matmul + bias + GELU in one region, split LEFT_RIGHT: each vector core of the cluster receives
# the left or the right half of the columns of the cube's result. GELU uses the sigmoid form
# x * sigmoid(1.702 x), which needs no row-wise reduction (a row reduction cannot be split by
# columns: ptoc rejects it under LEFT_RIGHT). A ring of 3 slots lets the cube run ahead.
import pypto.language as pl


@pl.jit
def mm_bias_gelu(a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 192], pl.FP16],
                 bias: pl.Tensor[[1, 192], pl.FP32], out: pl.Out[pl.Tensor[[64, 192], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT), pl.cross_core_slot(slot_num=3)],
               name_hint="mm_bias_gelu"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        x = pl.col_expand_add(acc, bias)
        sig = pl.recip(pl.adds(pl.exp(pl.muls(x, -1.702)), 1.0))
        out[:] = pl.mul(x, sig)
    return out
