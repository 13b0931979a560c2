# b_trans of a pl.NZ tensor: B stored [N, K] already in NZ order is loaded NZ -> NZ into Mat and read through the ZN
# transpose_view.
import pypto.language as pl

@pl.jit
def mm_trans_b_nz(a: pl.Tensor[[64, 256], pl.FP16], b: pl.Tensor[[128, 256], pl.FP16, pl.NZ], c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
