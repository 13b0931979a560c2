# a_trans FP32, K-tiled.
# expect-json: "M":64,"N":96,"K":512,"m":64,"n":96,"k":64
import pypto.language as pl

@pl.jit
def mm_trans_a_64x512x96_fp32(a: pl.Tensor[[512, 64], pl.FP32],
       b: pl.Tensor[[512, 96], pl.FP32],
       c: pl.Out[pl.Tensor[[64, 96], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.FP32)
    return c
