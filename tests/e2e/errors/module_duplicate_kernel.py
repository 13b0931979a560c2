# Two module-level @pl.function kernels with one name, called by a program: an error naming both lines.
# expect: two module-level functions are named 'k' (lines 7 and 14)
import pypto.language as pl


@pl.function(type=pl.FunctionType.InCore)
def k(a: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
    c = pl.store(t, [0, 0], c)
    return c


@pl.function(type=pl.FunctionType.InCore)
def k(a: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
    c = pl.store(pl.add(t, t), [0, 0], c)
    return c


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c = k(a, c)
        return c
