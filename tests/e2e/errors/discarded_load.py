# A load used as a statement: nothing holds its tile, and the backend dereferenced the missing
# variable (a null pointer, found by make fuzz-parse under UBSan).
# expect: discarded_load.py:10:9: error: the result of tile.load is discarded: assign it to a variable
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
        c[:] = pl.matmul(a, a, out_dtype=pl.FP32)
    return c
