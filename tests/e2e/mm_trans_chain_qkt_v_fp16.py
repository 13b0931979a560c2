# Attention without the softmax: s = q @ k^T (b_trans, k stored [N, K] and read through a ZN view), narrowed to FP16
# on-chip and fed to o = s @ v in the same region (the chained-matmul Mat copy of s).
import pypto.language as pl

@pl.jit
def chain_qkt_v(q: pl.Tensor[[64, 128], pl.FP16], k: pl.Tensor[[128, 128], pl.FP16], v: pl.Tensor[[128, 128], pl.FP16],
                o: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        s = pl.matmul(q, k, b_trans=True, out_dtype=pl.FP16)
        o[:] = pl.matmul(s, v, out_dtype=pl.FP32)
    return o
