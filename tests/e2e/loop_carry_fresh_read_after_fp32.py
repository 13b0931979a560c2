# A loop-carried tile whose new value comes from a fresh op (t = x + x) while the carried value is
# still read after it (y = acc * x): the new value cannot be computed into the carried buffer, so
# MaterializeSemanticAliases copies it there before the yield.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 256], pl.FP32],
          c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        acc = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        for i in pl.range(1, 4):
            x = pl.load(a, [0, i * 64], [16, 64], target_memory=pl.Mem.Vec)
            t = pl.add(x, x)
            y = pl.mul(acc, x)
            c = pl.store(y, [i * 16, 0], c)
            acc = t
        c = pl.store(acc, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 256], pl.FP32], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        c = self.k(a, c)
        return c
