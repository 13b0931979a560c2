# A run-time valid shape on a Vec tile consumed by a vector op: machine buffers have static valid
# boxes, so this is a located error (give constant extents).
# expect: vec_set_validshape_runtime.py:14:18: error: kernel
# expect: tile.row_sum: the tile 'v' has a run-time valid shape
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX], y: pl.Out[pl.Tensor[[16, 1], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        v = pl.set_validshape(tx, 16, n)
        tmp = pl.create_tile([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pl.store(pl.row_sum(v, tmp), [0, 0], y)
    return y
