# An arg reduction's scratch tile must have exactly the input's shape (a wider one makes the
# hardware column argmax walk past the valid columns).
# expect: vec_argmax_tmp_shape.py:13:18: error: tile.col_argmax: the scratch tile
# expect: must have exactly the shape of the input
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        tmp = pl.create_tile([16, 128], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pl.store(pl.col_argmax(tx, tmp), [0, 0], y)
    return y
