import pypto.language as pl

@pl.jit
def halves(a: pl.Tensor[[32, 32], pl.FP16],
           b: pl.Tensor[[32, 48], pl.FP16],
    c: pl.Out[pl.Tensor[[64, 48], pl.FP32]]):
    with pl.manual_scope():
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="top"):
         return c
