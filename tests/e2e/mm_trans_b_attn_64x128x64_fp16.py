# Attention-like q @ k^T: q [64, 128], k stored [64, 128] (b_trans): k is loaded as stored into Mat and read as a ZN view.
# expect-json: "M":64,"N":64,"K":128,"m":64,"n":64,"k":128
import pypto.language as pl

@pl.jit
def mm_trans_b_attn_64x128x64_fp16(a: pl.Tensor[[64, 128], pl.FP16],
       b: pl.Tensor[[64, 128], pl.FP16],
       c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
