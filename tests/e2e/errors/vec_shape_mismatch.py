# Two tiles of different shapes: the ISA has no broadcasting beyond [M, 1] / [1, N] vectors.
# expect: vec_shape_mismatch.py:11:13: error: tile.add: operand shapes differ: 'a' tile [16, 64] FP32 and 'b' tile [8, 64] FP32
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        a = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        b = pl.load(x, [0, 0], [8, 64], target_memory=pl.Mem.Vec)
        c = pl.add(a, b)
        pl.store(c, [0, 0], y)
    return y
