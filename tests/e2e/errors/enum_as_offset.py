# An enum value as an offset (found by make fuzz-parse: AutoTileMatmulL0 added 32 to it and the
# printed program did not parse back).
# expect: enum_as_offset.py:11:13: error: tensor.assemble: the offsets must be integers, got an enum value
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[32, 32], pl.FP16], b: pl.Tensor[[32, 32], pl.FP16], c: pl.Out[pl.Tensor[[32, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.matmul(a, b, out_dtype=pl.FP32)
        c = pl.assemble(c, t, [0, pl.FunctionType.AIV])
    return c
