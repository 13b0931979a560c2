# expect: split_aiv_count.py:8:34: error: pl.split_aiv(N) divides work between the 2 vector cores of a cluster: N must be 2
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for lane in pl.split_aiv(4):
            t = pl.load(x, [lane * 16, 0], [16, 128], target_memory=pl.Mem.Vec)
            pl.store(pl.exp(t), [lane * 16, 0], y)
    return y
