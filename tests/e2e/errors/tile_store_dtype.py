# A store converts only an FP32 accumulator to FP16/BF16: a Mat tile of FP16 stored into an FP32
# tensor is not an instruction the target has.
# expect: tile_store_dtype.py:11:9: error: tile.store: 't' tile [16, 16] FP16 cannot be stored into 'c' tensor [16, 16] FP32
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        pl.store(t, [0, 0], c)
    return c
