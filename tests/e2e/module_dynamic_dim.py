# A pl.dynamic dimension (language.md §1.4): ptoc needs a concrete extent for a run, given here with
# -D M=96 (the "# args:" line).
# args: -D M=96
import pypto.language as pl

M = pl.dynamic("M")


@pl.program
class Dyn:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[M, 64], pl.FP32],
          y: pl.Out[pl.Tensor[[M, 64], pl.FP32]]) -> pl.Tensor[[M, 64], pl.FP32]:
        t: pl.Tile[[M, 64], pl.FP32] = pl.load(x, [0, 0], [M, 64])
        y = pl.store(pl.sub(t, 3.0), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[M, 64], pl.FP32],
             y: pl.Out[pl.Tensor[[M, 64], pl.FP32]]) -> pl.Tensor[[M, 64], pl.FP32]:
        y = self.k(x, y)
        return y
