# Golden: tile.matmul_acc with 3 operands (the caller's accumulator threads through the K loop's iter-arg; every
# iteration a plain matmul_acc, no predicate) after a whole first matmul; K = 512 in blocks of k = 128.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 576], pl.FP16], b: pl.Tensor[[576, 128], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        ta0 = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb0 = pl.load(b, [0, 0], [64, 128], target_memory=pl.Mem.Mat)
        acc0 = pl.tile.matmul(ta0, tb0)
        ta = pl.load(a, [0, 64], [128, 512], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [64, 0], [512, 128], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_acc(acc0, ta, tb)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 576], pl.FP16], b: pl.Tensor[[576, 128], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c = self.k(a, b, c)
        return c
