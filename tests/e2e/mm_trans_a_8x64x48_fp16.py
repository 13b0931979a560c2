# a_trans with M = 8 (one partial box).
# expect-json: "M":16,"N":48,"K":64,"m":16,"n":48,"k":64
import pypto.language as pl

@pl.jit
def mm_trans_a_8x64x48_fp16(a: pl.Tensor[[64, 8], pl.FP16],
       b: pl.Tensor[[64, 48], pl.FP16],
       c: pl.Out[pl.Tensor[[8, 48], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.FP32)
    return c
