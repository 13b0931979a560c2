# AutoTileMatmulL0 on a biased matmul needing an M/N grid: [512, 64] x [64, 528] + [1, 528] FP32 bias, tile 256 x 128 x 64
# (A-stationary, full K): the whole bias load is dropped; every output tile loads its own [1, n] bias window from the
# tensor at column ni (a loop variable in the pipelined N sweep, a constant in the [1, 16] N tail).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[512, 64], pl.FP16], b: pl.Tensor[[64, 528], pl.FP16], bias: pl.Tensor[[1, 528], pl.FP32],
          c: pl.Out[pl.Tensor[[512, 528], pl.FP32]]) -> pl.Tensor[[512, 528], pl.FP32]:
        ta = pl.load(a, [0, 0], [512, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 528], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 528], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[512, 64], pl.FP16], b: pl.Tensor[[64, 528], pl.FP16], bias: pl.Tensor[[1, 528], pl.FP32],
             c: pl.Out[pl.Tensor[[512, 528], pl.FP32]]) -> pl.Tensor[[512, 528], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
