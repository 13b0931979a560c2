# Row softmax whose tile sizes come from the bound shape (R, C = x.shape) and whose scratch tiles
# take the input's dtype (dtype=x.dtype).
# args: --arg x=32x64:fp32 --arg y=32x64:fp32
import pypto.language as pl


@pl.jit
def row_softmax(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    R, C = x.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [R, C])
        scratch = pl.create_tile([R, C], dtype=x.dtype, target_memory=pl.MemorySpace.Vec)
        mx: pl.Tile[[R, 1], pl.FP32] = pl.row_max(t, scratch)
        e = pl.exp(pl.row_expand_sub(t, mx))
        scratch2 = pl.create_tile([R, C], dtype=x.dtype, target_memory=pl.MemorySpace.Vec)
        s: pl.Tile[[R, 1], pl.FP32] = pl.row_sum(e, scratch2)
        pl.store(pl.row_expand_div(e, s), [0, 0], y)
    return y
