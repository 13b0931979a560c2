# matmul_acc mixing layouts: the seed matmul reads A as stored [M, K], the accumulating ones read A^T chunks (a_trans)
# of a second tensor; INT8 pads M = 64 to the same 64 rows either way.
import pypto.language as pl

@pl.jit
def mm_trans_acc_mixed(a: pl.Tensor[[64, 128], pl.INT8], at: pl.Tensor[[256, 64], pl.INT8], b: pl.Tensor[[384, 96], pl.INT8],
                       c: pl.Out[pl.Tensor[[64, 96], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a, b[0:128, :], out_dtype=pl.INT32)
        for k in pl.pipeline(0, 2, stage=2):
            k0 = k * 128
            k1 = k0 + 128
            acc = pl.matmul_acc(acc, at[k0:k0 + 128, :], b[k1:k1 + 128, :], a_trans=True)
        c[:] = acc
    return c
