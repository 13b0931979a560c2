# Issue #2232 split-K chain: INT32 [16, 1152] (144 KiB physically on a2a3) split along N around the K loop.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.INT8], b: pl.Tensor[[64, 1152], pl.INT8],
          c: pl.Out[pl.Tensor[[16, 1152], pl.INT32]]) -> pl.Tensor[[16, 1152], pl.INT32]:
        acc0 = pl.tile.create([16, 1152], dtype=pl.INT32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 2, init_values=(acc0,), stage=2):
            k0 = kb * 32
            ta = pl.load(a, [0, k0], [16, 32], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [k0, 0], [32, 1152], target_memory=pl.Mem.Mat)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
            acc = pl.yield_(acc2)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.INT8], b: pl.Tensor[[64, 1152], pl.INT8],
             c: pl.Out[pl.Tensor[[16, 1152], pl.INT32]]) -> pl.Tensor[[16, 1152], pl.INT32]:
        c = self.k(a, b, c)
        return c
