# Row softmax written at the tile level, the way the PyPTO tutorial writes it: load the rows into
# the vector unit's buffer (Vec), reduce each row to its maximum, subtract it, exponentiate, divide
# by the row sums, store. row_max / row_sum give a [64, 1] column (one value per row) that the
# row_expand_* ops combine with every column of their row.
import pypto.language as pl


@pl.jit
def softmax(a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
        tmp = pl.create_tile([64, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        row_max: pl.Tile[[64, 1], pl.FP32] = pl.row_max(t, tmp)
        e = pl.exp(pl.row_expand_sub(t, row_max))
        row_sum: pl.Tile[[64, 1], pl.FP32] = pl.row_sum(e, tmp)
        pl.store(pl.row_expand_div(e, row_sum), [0, 0], out)
    return out
