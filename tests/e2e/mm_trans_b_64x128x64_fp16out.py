# b_trans with an FP16 result (the store narrows the FP32 accumulator).
# expect-json: "M":64,"N":64,"K":128,"m":64,"n":64,"k":128
import pypto.language as pl

@pl.jit
def mm_trans_b_64x128x64_fp16out(a: pl.Tensor[[64, 128], pl.FP16],
       b: pl.Tensor[[64, 128], pl.FP16],
       c: pl.Out[pl.Tensor[[64, 64], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP16)
    return c
