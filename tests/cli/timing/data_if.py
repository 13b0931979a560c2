# --timing-only: an if condition on a tile element (pl.read) depends on data the run does not
# compute; ptoc must stop with a located error naming the value, not time a guessed branch.
# (With data: y is written when x[0, 0] > 0.)
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 32], pl.INT32], y: pl.Out[pl.Tensor[[64, 32], pl.INT32]]) -> pl.Tensor[[64, 32], pl.INT32]:
        t = pl.load(x, [0, 0], [16, 32])
        n = pl.read(t, [0, 0])
        if n > 0:
            pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 32], pl.INT32], y: pl.Out[pl.Tensor[[64, 32], pl.INT32]]) -> pl.Tensor[[64, 32], pl.INT32]:
        y = self.k(x, y)
        return y
