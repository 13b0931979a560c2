# One branch yields a value from before the if (t = x) that is read again after it: the other
# branch may not write into x's buffer, so it gets the phi's own buffer and the first branch a copy.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX],
          c: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        if n == 0:
            t = x
        else:
            t = pl.add(x, x)
        c = pl.store(t, [0, 0], c)
        y = pl.mul(x, x)
        c = pl.store(y, [16, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], c0: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
             c1: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        c0 = self.k(a, 0, c0)
        c1 = self.k(a, 1, c1)
        return c1
