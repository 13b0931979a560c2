# Both transposed on a5.
# expect-json: "M":112,"N":200,"K":256,"m":112,"n":112,"k":128
# args: --target a5
import pypto.language as pl

@pl.jit
def mm_trans_ab_100x256x200_fp16_a5(a: pl.Tensor[[256, 100], pl.FP16],
       b: pl.Tensor[[200, 256], pl.FP16],
       c: pl.Out[pl.Tensor[[100, 200], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, b_trans=True, out_dtype=pl.FP32)
    return c
