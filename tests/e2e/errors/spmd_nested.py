# expect: spmd_nested.py:8:9: error: pl.spmd(...) inside the pl.spmd at line 7: one launch has one block count; launch t
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[256, 128], pl.FP32],
      y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    with pl.spmd(2):
        for i in pl.spmd(4):
            t = pl.load(x, [i * 32, 0], [32, 128])
            pl.store(pl.exp(t), [i * 32, 0], y)
    return y
