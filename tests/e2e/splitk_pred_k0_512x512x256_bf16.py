# Canonical split-K chain, predicated with the seed test on a body-local k0 = kb * 128 (k0 == 0): a [512, 512]
# FP32 Acc (1 MiB) re-tiled into sixteen [128, 128] sub-tiles, each with its own clone of the K loop.
# expect-json: "M":128,"N":128,"K":128
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[512, 256], pl.BF16], b: pl.Tensor[[256, 512], pl.BF16],
          c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]) -> pl.Tensor[[512, 512], pl.FP32]:
        acc0 = pl.tile.create([512, 512], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 2, init_values=(acc0,), stage=2):
            k0 = kb * 128
            ta = pl.load(a, [0, k0], [512, 128], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [k0, 0], [128, 512], target_memory=pl.Mem.Mat)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, k0 == 0)
            acc = pl.yield_(acc2)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[512, 256], pl.BF16], b: pl.Tensor[[256, 512], pl.BF16],
             c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]) -> pl.Tensor[[512, 512], pl.FP32]:
        c = self.k(a, b, c)
        return c
