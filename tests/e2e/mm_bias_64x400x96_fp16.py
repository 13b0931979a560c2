# Issue 8: tile.matmul_bias K-tiled by AutoTileMatmulL0 (head-peeled bias block + pipelined matmul_acc loop; a K tail when K is not a multiple of the chosen k).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[64, 400], pl.FP16], b: pl.Tensor[[400, 96], pl.FP16], bias: pl.Tensor[[1, 96], pl.FP32],
          c: pl.Out[pl.Tensor[[64, 96], pl.FP32]]) -> pl.Tensor[[64, 96], pl.FP32]:
        ta = pl.load(a, [0, 0], [64, 400], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [400, 96], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 96], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 400], pl.FP16], b: pl.Tensor[[400, 96], pl.FP16], bias: pl.Tensor[[1, 96], pl.FP32],
             c: pl.Out[pl.Tensor[[64, 96], pl.FP32]]) -> pl.Tensor[[64, 96], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
