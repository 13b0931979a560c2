# Issue 7: the scalar unit reads Vec tiles only; a Mat tile is a located error with the fix.
# expect: access_tile_not_vec.py:10:9: error: kernel 'k': tile.read of a tile in Mat: the scalar unit reads and writes Vec tiles only (move it to Vec first)
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 32], pl.FP16], y: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        t = pl.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        v = pl.read(t, [0, 0])
        y2 = pl.tensor.write(y, [0, 0], v)
        return y2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 32], pl.FP16], y: pl.Out[pl.Tensor[[16, 32], pl.FP16]]) -> pl.Tensor[[16, 32], pl.FP16]:
        y = self.k(x, y)
        return y
