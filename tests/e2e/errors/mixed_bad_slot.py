# expect: pl.cross_core_slot(slot_num=N) needs a constant N in [1, 16]
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.cross_core_slot(slot_num=0)]):
        out[:] = pl.exp(a)
    return out
