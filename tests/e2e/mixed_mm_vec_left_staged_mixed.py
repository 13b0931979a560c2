# A Vec left operand crosses to the cube (a vector -> cube tpush/tpop) and is staged to Mat before the K loop; the kernel mixes
# cube and vector work, so ExpandMixedKernel splits it into AIC + AIV (issue 10).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[64, 256], pl.FP16], b: pl.Tensor[[256, 64], pl.FP16],
          c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        ta = pl.load(a, [0, 0], [64, 256], target_memory=pl.Mem.Vec)
        tb = pl.load(b, [0, 0], [256, 64], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul(ta, tb)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 256], pl.FP16], b: pl.Tensor[[256, 64], pl.FP16],
             c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        c = self.k(a, b, c)
        return c
