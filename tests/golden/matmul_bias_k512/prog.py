# AutoTileMatmulL0 on tile.matmul_bias, K = 512 (issue 8): a head-peeled first K block applies the bias once
# (tile.matmul_bias), the other blocks accumulate in a 2-stage pipelined K loop (matmul_acc, no predicate).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], bias: pl.Tensor[[1, 128], pl.FP32],
          c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 512], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [512, 128], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 128], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], bias: pl.Tensor[[1, 128], pl.FP32],
             c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
