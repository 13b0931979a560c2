# a_trans with K large enough to be K-tiled: extracts of [m, k] windows of the ZN view along K.
# expect-json: "M":128,"N":128,"K":768,"m":128,"n":128,"k":128
import pypto.language as pl

@pl.jit
def mm_trans_a_128x768x128_fp16(a: pl.Tensor[[768, 128], pl.FP16],
       b: pl.Tensor[[768, 128], pl.FP16],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.FP32)
    return c
