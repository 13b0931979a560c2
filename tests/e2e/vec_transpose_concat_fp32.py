# transpose (a copy, with its scratch tile), transpose_view (the same bytes read as a col-major tile) and
# concat; checked against numpy by hand: bit-exact.
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], b: pl.Tensor[[16, 32], pl.FP32], t: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
      v: pl.Out[pl.Tensor[[64, 16], pl.FP32]], c: pl.Out[pl.Tensor[[16, 96], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        tmp = pl.create_tile([64, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pl.store(pl.tile.transpose(tx, 0, 1, tmp), [0, 0], t)
        pl.store(pl.tile.transpose_view(pl.exp(tx)), [0, 0], v)
        c[:] = pl.concat(x, pl.mul(b, 2.0))
    return t, v, c
