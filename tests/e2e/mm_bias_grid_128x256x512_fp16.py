# Biased M/N grid, N split (tile 128 x 256 x 64): the [1, 512] bias is loaded as two [1, 256] windows from the tensor, each moved to Bias.
# expect-json: "M":128,"N":512,"K":256,"m":128,"n":256,"k":64
# expect-json: "space":"bias","addr":0,"bytes":1024
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.FP32],
          c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 256], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [256, 512], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 512], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.FP32],
             c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
