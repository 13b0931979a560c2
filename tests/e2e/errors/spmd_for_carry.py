# expect: spmd_for_carry.py:7:20: error: for ... in pl.spmd(N) takes one loop variable (the block index) and no loop-car
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[256, 128], pl.FP32],
      y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    for i, (a,) in pl.spmd(4, init_values=(0,)):
        t = pl.load(x, [i * 32, 0], [32, 128])
        pl.store(pl.exp(t), [i * 32, 0], y)
    return y
