# expect: mixed_bad_optimization.py:7:58: error: unknown optimization 'pl.fuse' (pl.at accepts pl.split(pl.SplitMode.X) and pl.cross_core_slot(slot_num=N))
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.fuse()]):
        out[:] = pl.exp(a)
    return out
