# A [16, 20] FP32 tile has 80-byte rows, padded to 96 in UB: reshaping it is not a view of the same bytes.
# expect: vec_reshape_padded.py:10:13: error: tile.reshape: reshaping 't' tile [16, 20] FP32 to [20, 16] is not a view of the same bytes
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 20], pl.FP32], y: pl.Out[pl.Tensor[[20, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 20], target_memory=pl.Mem.Vec)
        r = pl.reshape(t, [20, 16])
        pl.store(r, [0, 0], y)
    return y
