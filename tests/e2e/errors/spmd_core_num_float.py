# expect: spmd_core_num_float.py:7:22: error: pl.spmd: core_num must be an integer (a literal, a constant or an integer 
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[256, 128], pl.FP32],
      y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    for i in pl.spmd(2.5):
        t = pl.load(x, [i * 32, 0], [32, 128])
        pl.store(pl.exp(t), [i * 32, 0], y)
    return y
