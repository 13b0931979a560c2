# Issue #2232: a canonical split-K chain (predicated, kb == 0) whose logical INT32 [16, 1152] Acc occupies
# 32 x 1152 x 4 = 144 KiB physically on a2a3 (INT32 accumulators align M to 32 rows) is split along N:
# sub-tiles [16, 512], [16, 512], [16, 128], each running all eight K blocks before its store.
# expect-json: "M":16,"N":512,"K":64
# expect-json: "M":16,"N":128,"K":64
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 512], pl.INT8], b: pl.Tensor[[512, 1152], pl.INT8],
          c: pl.Out[pl.Tensor[[16, 1152], pl.INT32]]) -> pl.Tensor[[16, 1152], pl.INT32]:
        acc0 = pl.tile.create([16, 1152], dtype=pl.INT32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 8, init_values=(acc0,), stage=2):
            k0 = kb * 64
            ta = pl.load(a, [0, k0], [16, 64], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [k0, 0], [64, 1152], target_memory=pl.Mem.Mat)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
            acc = pl.yield_(acc2)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 512], pl.INT8], b: pl.Tensor[[512, 1152], pl.INT8],
             c: pl.Out[pl.Tensor[[16, 1152], pl.INT32]]) -> pl.Tensor[[16, 1152], pl.INT32]:
        c = self.k(a, b, c)
        return c
