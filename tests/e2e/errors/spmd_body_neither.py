# expect: spmd_body_neither.py:7:5: error: the body of 'with pl.spmd(...)' must either read the block index (pl.tile.get
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[256, 128], pl.FP32],
      y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    with pl.spmd(2):
        with pl.at(level=pl.Level.CORE_GROUP):
            y[0:128, :] = pl.exp(x[0:128, :])
        with pl.at(level=pl.Level.CORE_GROUP):
            y[128:256, :] = pl.exp(x[128:256, :])
    return y
