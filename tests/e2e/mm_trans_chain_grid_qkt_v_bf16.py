# s = q @ k^T (b_trans) is [256, 256] FP32 in L0C (256 KiB, over the 128 KiB L0C): its M/N grid extracts windows of
# the ZN view of k and assembles the BF16 sub-tiles into a Mat scratch that feeds o = s @ v^T (b_trans again).
# expect-json: "M":256,"N":256,"K":64,"m":128,"n":256,"k":64
import pypto.language as pl

@pl.jit
def chain_grid_qkt_v(q: pl.Tensor[[256, 64], pl.BF16], k: pl.Tensor[[256, 64], pl.BF16],
                     vt: pl.Tensor[[64, 256], pl.BF16], o: pl.Out[pl.Tensor[[256, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        s = pl.matmul(q, k, b_trans=True, out_dtype=pl.BF16)
        o[:] = pl.matmul(s, vt, b_trans=True, out_dtype=pl.FP32)
    return o
