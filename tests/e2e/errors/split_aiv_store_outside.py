# expect: this store is outside the pl.split_aiv loop of its region, so both vector cores would run it
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]], z: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            t = pl.load(x, [lane * 32, 0], [32, 128], target_memory=pl.Mem.Vec)
            pl.store(pl.exp(t), [lane * 32, 0], y)
        z[:] = pl.exp(x)
    return y, z
