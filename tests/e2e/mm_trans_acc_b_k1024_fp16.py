# matmul_acc with b_trans: K = 1024 blocked by hand in chunks of 128 over B stored [N, K]; each chunk is a column
# window of B^T, loaded as stored and read through a ZN transpose_view; the Acc tile is carried through pl.pipeline.
import pypto.language as pl

@pl.jit
def mm_trans_acc_b(a: pl.Tensor[[128, 1024], pl.FP16], bt: pl.Tensor[[96, 1024], pl.FP16],
                   c: pl.Out[pl.Tensor[[128, 96], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a[:, 0:128], bt[:, 0:128], b_trans=True, out_dtype=pl.FP32)
        for k in pl.pipeline(1, 8, stage=2):
            k0 = k * 128
            acc = pl.matmul_acc(acc, a[:, k0:k0 + 128], bt[:, k0:k0 + 128], b_trans=True)
        c[:] = acc
    return c
