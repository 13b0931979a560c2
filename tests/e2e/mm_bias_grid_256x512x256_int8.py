# Biased INT8 M/N grid (INT32 bias and result): N split into two [1, 128] INT32 windows, K loop of 128.
# expect-json: "m":256,"n":128,"k":128
# expect-json: "space":"bias","addr":0,"bytes":512
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[256, 512], pl.INT8], b: pl.Tensor[[512, 256], pl.INT8], bias: pl.Tensor[[1, 256], pl.INT32],
          c: pl.Out[pl.Tensor[[256, 256], pl.INT32]]) -> pl.Tensor[[256, 256], pl.INT32]:
        ta = pl.load(a, [0, 0], [256, 512], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [512, 256], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 256], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[256, 512], pl.INT8], b: pl.Tensor[[512, 256], pl.INT8], bias: pl.Tensor[[1, 256], pl.INT32],
             c: pl.Out[pl.Tensor[[256, 256], pl.INT32]]) -> pl.Tensor[[256, 256], pl.INT32]:
        c = self.k(a, b, bias, c)
        return c
