# Biased M/N grid with boundary tiles in M (272 = 144 + 128) and N (304 = 128 + 128 + 48): [1, 128] and [1, 48] bias windows.
# expect-json: "m":144,"n":128,"k":96
# expect-json: "space":"bias","addr":0,"bytes":512
# expect-json: "space":"bias","addr":0,"bytes":192
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[272, 256], pl.BF16], b: pl.Tensor[[256, 304], pl.BF16], bias: pl.Tensor[[1, 304], pl.FP32],
          c: pl.Out[pl.Tensor[[272, 304], pl.FP32]]) -> pl.Tensor[[272, 304], pl.FP32]:
        ta = pl.load(a, [0, 0], [272, 256], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [256, 304], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 304], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[272, 256], pl.BF16], b: pl.Tensor[[256, 304], pl.BF16], bias: pl.Tensor[[1, 304], pl.FP32],
             c: pl.Out[pl.Tensor[[272, 304], pl.FP32]]) -> pl.Tensor[[272, 304], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
