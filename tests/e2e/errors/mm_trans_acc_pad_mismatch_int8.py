# An INT8 matmul_acc chain whose seed reads A untransposed (M = 48 padded to 48 rows) and whose accumulating matmul
# reads A^T (a_trans): the ZN view needs M padded to 32-row boxes (64), which the 48-row accumulator cannot take.
# expect: error: matmul_acc: the accumulator has 48 rows (M = 48 padded to the 16-row box) but its transposed (a_trans) left operand needs M padded to a multiple of 32
# expect: mm_trans_acc_pad_mismatch_int8.py:15:19
import pypto.language as pl

@pl.jit
def mm_trans_acc_mixed(a: pl.Tensor[[48, 128], pl.INT8], at: pl.Tensor[[256, 48], pl.INT8], b: pl.Tensor[[384, 96], pl.INT8],
                       c: pl.Out[pl.Tensor[[48, 96], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a, b[0:128, :], out_dtype=pl.INT32)
        for k in pl.pipeline(0, 2, stage=2):
            k0 = k * 128
            k1 = k0 + 128
            acc = pl.matmul_acc(acc, at[k0:k0 + 128, :], b[k1:k1 + 128, :], a_trans=True)
        c[:] = acc
    return c
