# A biased matmul with M = 40 (not a whole 16-row fractal) cannot form a legal Bias window (chooser.md §13): PH-AT-011
# before the chooser is asked, and the call is left as written. Untiled it fits L0 and runs.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[40, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], bias: pl.Tensor[[1, 64], pl.FP32],
          c: pl.Out[pl.Tensor[[40, 64], pl.FP32]]) -> pl.Tensor[[40, 64], pl.FP32]:
        ta = pl.load(a, [0, 0], [40, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 64], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[40, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], bias: pl.Tensor[[1, 64], pl.FP32],
             c: pl.Out[pl.Tensor[[40, 64], pl.FP32]]) -> pl.Tensor[[40, 64], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
