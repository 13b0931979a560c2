# M = 8 is below the cube minimum tile dimension (16) and the pass never pads (allow_padding = false, chooser.md §13):
# the chooser refuses the configuration, PH-AT-005, and the matmul runs untiled (it fits L0 whole).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[8, 512], pl.FP16], b: pl.Tensor[[512, 64], pl.FP16], c: pl.Out[pl.Tensor[[8, 64], pl.FP32]]) -> pl.Tensor[[8, 64], pl.FP32]:
        ta = pl.load(a, [0, 0], [8, 512], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [512, 64], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul(ta, tb)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[8, 512], pl.FP16], b: pl.Tensor[[512, 64], pl.FP16], c: pl.Out[pl.Tensor[[8, 64], pl.FP32]]) -> pl.Tensor[[8, 64], pl.FP32]:
        c = self.k(a, b, c)
        return c
