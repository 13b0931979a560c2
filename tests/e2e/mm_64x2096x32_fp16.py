# K = 2096 = 10 x 192 + 176: a pipelined K loop of ten blocks and a peeled K tail of 176.
# expect-json: "M":64,"N":32,"K":2096,"m":64,"n":32,"k":192
import pypto.language as pl

@pl.jit
def mm_64x2096x32_fp16(a: pl.Tensor[[64, 2096], pl.FP16],
       b: pl.Tensor[[2096, 32], pl.FP16],
       c: pl.Out[pl.Tensor[[64, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
