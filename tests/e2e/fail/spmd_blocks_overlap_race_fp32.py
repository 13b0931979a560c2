# Every block of one SPMD task writes the same rows of y without an atomic add: the blocks run
# concurrently, so the task-level race check must report it (block 0 against block 1), although the
# simulator, running the blocks one after another, gets the interpreter's values.
# expect: blocks 0 and 1 of task 0 'same_rows' (one SPMD task: its blocks run concurrently): block 0 writes and block 1 writes y
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[128, 64], pl.FP32],
      y: pl.Out[pl.Tensor[[128, 64], pl.FP32]]):
    for i in pl.spmd(4, name_hint="same_rows"):
        t = pl.load(x, [0, 0], [32, 64])
        pl.store(pl.exp(t), [0, 0], y)
    return y
