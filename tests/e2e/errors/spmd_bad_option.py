# expect: spmd_bad_option.py:7:25: error: pl.spmd has no option 'predicate' that ptoc supports (options: core_num, name_
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[256, 128], pl.FP32],
      y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    for i in pl.spmd(4, predicate=True):
        t = pl.load(x, [i * 32, 0], [32, 128])
        pl.store(pl.exp(t), [i * 32, 0], y)
    return y
