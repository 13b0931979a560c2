# a_trans and b_trans: A stored [K, M] = [512, 100], B stored [N, K] = [80, 512]. ConvertTensorToTileOps loads each as
# stored into Mat (A^T's columns, M, padded to 112) and reads it through a zero-copy tile.transpose_view (NZ seen as
# ZN); AutoTileMatmulL0 K-tiles the extracts of the two ZN views.
import pypto.language as pl

@pl.jit
def matmul_trans(a: pl.Tensor[[512, 100], pl.FP16],
                 b: pl.Tensor[[80, 512], pl.FP16],
                 c: pl.Out[pl.Tensor[[100, 80], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, b_trans=True, out_dtype=pl.FP32)
    return c
