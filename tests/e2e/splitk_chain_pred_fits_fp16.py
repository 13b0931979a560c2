# Issue 8: a split-K chain (create in Acc, pl.pipeline over K chunks, one store) whose accumulator fits L0C, in the pred spelling (one matmul_acc(acc, a, b, kb == 0)).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[64, 512], pl.FP16], b: pl.Tensor[[512, 96], pl.FP16],
          c: pl.Out[pl.Tensor[[64, 96], pl.FP32]]) -> pl.Tensor[[64, 96], pl.FP32]:
        acc = pl.tile.create([64, 96], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb in pl.pipeline(0, 4, stage=2):
            ta = pl.load(a, [0, kb * 128], [64, 128], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [kb * 128, 0], [128, 96], target_memory=pl.Mem.Mat)
            acc = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
        c = pl.store(acc, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 512], pl.FP16], b: pl.Tensor[[512, 96], pl.FP16],
             c: pl.Out[pl.Tensor[[64, 96], pl.FP32]]) -> pl.Tensor[[64, 96], pl.FP32]:
        c = self.k(a, b, c)
        return c
