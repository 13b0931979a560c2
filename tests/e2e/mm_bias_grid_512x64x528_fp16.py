# Biased full-K grid (k == K, A-stationary): the inner pipelined sweep over N loads a [1, 128] window per tile into two Bias slots; a [1, 16] N tail.
# expect-json: "m":256,"n":128,"k":64,"stationarity":"AS"
# expect-json: "space":"bias","addr":512,"bytes":512
# expect-json: "space":"bias","addr":0,"bytes":64
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
