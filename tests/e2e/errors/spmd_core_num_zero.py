# expect: spmd_core_num_zero.py:7:22: error: pl.spmd: core_num 0 is outside [1, 32767] (the number of blocks to launch)
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[256, 128], pl.FP32],
      y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    for i in pl.spmd(0):
        t = pl.load(x, [i * 32, 0], [32, 128])
        pl.store(pl.exp(t), [i * 32, 0], y)
    return y
