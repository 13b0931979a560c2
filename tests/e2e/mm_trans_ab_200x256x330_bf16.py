# Both transposed, ragged M and N (boundary peels).
# On one core (--cores 1): the tiles of the whole matrix (split over cores, AutoSplitCores makes an uneven grid).
# args: --cores 1
# expect-json: "M":208,"N":330,"K":256,"m":208,"n":128,"k":64
import pypto.language as pl

@pl.jit
def mm_trans_ab_200x256x330_bf16(a: pl.Tensor[[256, 200], pl.BF16],
       b: pl.Tensor[[330, 256], pl.BF16],
       c: pl.Out[pl.Tensor[[200, 330], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, b_trans=True, out_dtype=pl.FP32)
    return c
