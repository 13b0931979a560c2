# Canonical split-K chain, INT8 with N = 80 (an INT8 Right/Mat box is 32 columns wide, so 80 boxes to 96): the
# chooser charges the boxed N; the [512, 80] INT32 Acc re-tiles into [256, 64] and [256, 16] sub-tiles.
# expect-json: "M":256,"N":64,"K":128
# expect-json: "M":256,"N":16,"K":128
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[512, 256], pl.INT8], b: pl.Tensor[[256, 80], pl.INT8],
          c: pl.Out[pl.Tensor[[512, 80], pl.INT32]]) -> pl.Tensor[[512, 80], pl.INT32]:
        acc0 = pl.tile.create([512, 80], dtype=pl.INT32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 2, init_values=(acc0,), stage=2):
            k0 = kb * 128
            ta = pl.load(a, [0, k0], [512, 128], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [k0, 0], [128, 80], target_memory=pl.Mem.Mat)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
            acc = pl.yield_(acc2)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[512, 256], pl.INT8], b: pl.Tensor[[256, 80], pl.INT8],
             c: pl.Out[pl.Tensor[[512, 80], pl.INT32]]) -> pl.Tensor[[512, 80], pl.INT32]:
        c = self.k(a, b, c)
        return c
