# exp of integer elements: the op, the dtype, the operand and the supported dtypes.
# expect: vec_exp_int.py:10:13: error: tile.exp: exp is not supported for INT32 elements ('t' tile [16, 64] INT32); supported: FP16, BF16, FP32
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.INT32], y: pl.Out[pl.Tensor[[16, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        e = pl.exp(t)
        pl.store(e, [0, 0], y)
    return y
