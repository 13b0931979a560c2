# matmul_acc with a_trans and b_trans, ragged M = 100 (padded to 112 in the ZN view of A^T): A stored [K, M],
# B stored [N, K], K = 512 blocked in chunks of 128, each chunk's matmul K-tiled inside.
import pypto.language as pl

@pl.jit
def mm_trans_acc_ab(at: pl.Tensor[[512, 100], pl.BF16], bt: pl.Tensor[[80, 512], pl.BF16],
                    c: pl.Out[pl.Tensor[[100, 80], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(at[0:128, :], bt[:, 0:128], a_trans=True, b_trans=True, out_dtype=pl.FP32)
        for k in pl.pipeline(1, 4, stage=2):
            k0 = k * 128
            acc = pl.matmul_acc(acc, at[k0:k0 + 128, :], bt[:, k0:k0 + 128], a_trans=True, b_trans=True)
        c[:] = acc
    return c
