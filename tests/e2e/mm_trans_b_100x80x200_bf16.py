# b_trans, odd M and N: B stored [N, K] = [200, 80], read as a [80, 200] ZN view.
# expect-json: "M":112,"N":200,"K":80,"m":112,"n":128,"k":80
import pypto.language as pl

@pl.jit
def mm_trans_b_100x80x200_bf16(a: pl.Tensor[[100, 80], pl.BF16],
       b: pl.Tensor[[200, 80], pl.BF16],
       c: pl.Out[pl.Tensor[[100, 200], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
