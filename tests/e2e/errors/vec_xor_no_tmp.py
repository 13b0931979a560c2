# The tile form of xor takes a scratch tile (the tensor form creates it).
# expect: vec_xor_no_tmp.py:11:18: error: tile.xor needs a scratch tile as its third operand: pl.xor(x, y, tmp), tmp a Vec tile of x's shape and dtype (the tensor form creates it)
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.INT32], z: pl.Tensor[[16, 64], pl.INT32], y: pl.Out[pl.Tensor[[16, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        tz = pl.load(z, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        pl.store(pl.xor(tx, tz), [0, 0], y)
    return y
