# Issue 9: pl.Tile[[64, 64], pl.FP32] annotations without a memory space on if-yield targets (was an
# internal verification error: the merged tile had no memory space); the value's space is taken.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [64, 64])
        if True:
            u: pl.Tile[[64, 64], pl.FP32] = pl.add(t, 1.0)
            r: pl.Tile[[64, 64], pl.FP32] = pl.yield_(u)
        else:
            u2 = pl.add(t, 2.0)
            r: pl.Tile[[64, 64], pl.FP32] = pl.yield_(u2)
        pl.store(r, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        y = self.k(x, y)
        return y
