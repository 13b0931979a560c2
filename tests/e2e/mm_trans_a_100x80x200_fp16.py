# a_trans, odd M: A stored [K, M] = [80, 100], its columns (M) padded to 112 in Mat, seen as a [112, 80] ZN view; N = 200 splits.
# expect-json: "M":112,"N":200,"K":80,"m":112,"n":128,"k":80
import pypto.language as pl

@pl.jit
def mm_trans_a_100x80x200_fp16(a: pl.Tensor[[80, 100], pl.FP16],
       b: pl.Tensor[[80, 200], pl.FP16],
       c: pl.Out[pl.Tensor[[100, 200], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.FP32)
    return c
