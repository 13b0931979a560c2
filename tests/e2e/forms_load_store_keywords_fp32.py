# Issue 9 (language.md §2): pl.load with offsets= / shapes= keywords, target_memory by keyword, the
# 6-positional pl.tile.load, pl.store with offsets= / output_tensor= and the 4-positional store (shapes).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        a = pl.load(x, offsets=[0, 0], shapes=[32, 64])
        b = pl.load(x, [32, 0], shapes=[32, 64], target_memory=pl.MemorySpace.Vec)
        c: pl.Tile[[32, 64], pl.FP32] = pl.add(a, b)
        pl.store(c, offsets=[0, 0], output_tensor=y)
        d = pl.tile.load(x, [32, 0], [32, 64], [32, 64], pl.Mem.Vec, False)
        pl.store(d, [32, 0], y, [32, 64])
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        y = self.k(x, y)
        return y
