# A tile loaded without target_memory and carried through a loop: InferTileMemorySpace decides its space
# (Vec) after the loop's iter args and results were typed; they take it too (was an internal IR
# verification error, 'tile has no memory space'). The trip count is read from the data (x[0, 0] % 4).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        n = pl.cast(pl.read(t, [0, 0]), pl.INT32)
        for i in pl.range(n % 4):
            t = pl.add(t, 1.0)
        pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        y = self.k(x, y)
        return y
