# Issue 6 item 3: a pl.Scalar loop bound passed to a kernel (3 of 4 row blocks are written).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[32, 48], pl.FP32],
             c: pl.Out[pl.Tensor[[64, 48], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 48], pl.FP32]:
        tb = pl.load(b, [0, 0], [32, 48], target_memory=pl.Mem.Mat)
        lb = pl.move(tb, target_memory=pl.Mem.Right)
        for j in pl.range(n):
            ta = pl.load(a, [j * 16, 0], [16, 32], target_memory=pl.Mem.Mat)
            la = pl.move(ta, target_memory=pl.Mem.Left)
            acc = pl.matmul(la, lb)
            c = pl.store(acc, [j * 16, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[32, 48], pl.FP32],
             c: pl.Out[pl.Tensor[[64, 48], pl.FP32]]) -> pl.Tensor[[64, 48], pl.FP32]:
        c = self.rows(a, b, c, 3)
        return c
