# Canonical split-K chain, INT8 operands: a [256, 256] INT32 Acc re-tiled around the K loop (Mat boxes of 16 x 32
# charged by the chooser).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[256, 256], pl.INT8], b: pl.Tensor[[256, 256], pl.INT8],
          c: pl.Out[pl.Tensor[[256, 256], pl.INT32]]) -> pl.Tensor[[256, 256], pl.INT32]:
        acc0 = pl.tile.create([256, 256], dtype=pl.INT32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 2, init_values=(acc0,), stage=2):
            k0 = kb * 128
            ta = pl.load(a, [0, k0], [256, 128], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [k0, 0], [128, 256], target_memory=pl.Mem.Mat)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
            acc = pl.yield_(acc2)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[256, 256], pl.INT8], b: pl.Tensor[[256, 256], pl.INT8],
             c: pl.Out[pl.Tensor[[256, 256], pl.INT32]]) -> pl.Tensor[[256, 256], pl.INT32]:
        c = self.k(a, b, c)
        return c
