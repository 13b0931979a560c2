# a_trans and b_trans, FP32 (ZN box 8 x 16).
# expect-json: "M":112,"N":200,"K":80,"m":112,"n":128,"k":48
import pypto.language as pl

@pl.jit
def mm_trans_ab_100x80x200_fp32(a: pl.Tensor[[80, 100], pl.FP32],
       b: pl.Tensor[[200, 80], pl.FP32],
       c: pl.Out[pl.Tensor[[100, 200], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, b_trans=True, out_dtype=pl.FP32)
    return c
