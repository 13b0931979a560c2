# Issue 6 item 3 (parallel loop, BF16): scalar arguments of an InCore function (the row of the band) arrive in the kernel.
# (variant: --target a5 --dbc)
# args: --target a5 --dbc
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def band(self, a: pl.Tensor[[64, 64], pl.BF16], b: pl.Tensor[[64, 64], pl.BF16],
             c: pl.Out[pl.Tensor[[64, 64], pl.FP32]], r0: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 64], pl.FP32]:
        ta = pl.load(a, [r0, 0], [16, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        la = pl.move(ta, target_memory=pl.Mem.Left)
        lb = pl.move(tb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, lb)
        c2 = pl.store(acc, [r0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 64], pl.BF16], b: pl.Tensor[[64, 64], pl.BF16],
             c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        for i in pl.parallel(4):
            c = self.band(a, b, c, i * 16 + 0)
        return c
