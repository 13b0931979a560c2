# Issue 9 (language.md §2): more positional arguments than the op has positional parameters (atomic is keyword-only).
# expect: error: tile.store takes at most 4 positional arguments, got 5 (parameters: tile, offsets, output_tensor, shapes=None, *, atomic=pl.AtomicType.None_)
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], y, [64, 64], pl.AtomicType.None_)
        pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        y = self.k(x, y)
        return y
