# A biased matmul whose [1, 512] bias caps the L0 tile at n = 256 (the 1 KiB Bias table holds 256 FP32 columns),
# so it needs an N grid; but its result is stored twice, so no direct-store placement applies: PH-AT-006, left
# untiled. Untiled it still runs: the FP16 bias (1 KiB) fits Bias whole and the [64, 512] FP32 result fits L0C.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[64, 512], pl.FP32]], d: pl.Out[pl.Tensor[[64, 512], pl.FP32]]) -> pl.Tensor[[64, 512], pl.FP32]:
        ta = pl.load(a, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 512], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 512], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        d2 = pl.store(acc, [0, 0], d)
        return d2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.FP16],
             c: pl.Out[pl.Tensor[[64, 512], pl.FP32]], d: pl.Out[pl.Tensor[[64, 512], pl.FP32]]) -> pl.Tensor[[64, 512], pl.FP32]:
        d = self.k(a, b, bias, c, d)
        return d
