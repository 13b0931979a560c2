# Sub-byte and FP8 elements have no implementation in the interpreter or the simulator: a tile of
# INT4 aborted the compiler (an assertion on the element size); now the type is refused where it is
# written.
# expect: dtype_int4_tensor.py:8:30: error: pl.Tensor elements of pl.INT4 are not supported by ptoc
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 32], pl.INT4],
      c: pl.Out[pl.Tensor[[32, 32], pl.INT4]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [32, 32], target_memory=pl.Mem.Vec)
        pl.store(t, [0, 0], c)
    return c
