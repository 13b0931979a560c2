# q @ k^T on a5.
# expect-json: "M":64,"N":64,"K":128,"m":64,"n":64,"k":128
# args: --target a5
import pypto.language as pl

@pl.jit
def mm_trans_b_attn_64x128x64_bf16_a5(a: pl.Tensor[[64, 128], pl.BF16],
       b: pl.Tensor[[64, 128], pl.BF16],
       c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
