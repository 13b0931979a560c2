# A module-level @pl.inline function called from a program: ptoc has no InlineFunctions pass yet, so
# the call is a clear error (not a miscompiled task).
# expect: module_inline_kernel.py:20:13: error: 'twice' is a module-level @pl.inline function (line 9)
# expect: make it @pl.function(type=pl.FunctionType.InCore)
import pypto.language as pl


@pl.inline
def twice(a: pl.Tensor[[32, 64], pl.FP32], c: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
    t: pl.Tile[[32, 64], pl.FP32] = pl.load(a, [0, 0], [32, 64])
    c = pl.store(pl.add(t, t), [0, 0], c)
    return c


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[32, 64], pl.FP32],
             c: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        c = twice(a, c)
        return c
