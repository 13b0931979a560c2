# Canonical split-K chain with boundary sub-tiles: [320, 208] FP32 splits into rows 112 + 112 + 96 and columns
# 128 + 80; every sub-tile runs the whole K reduction over narrowed loads.
# expect-json: "M":112,"N":128,"K":128
# expect-json: "M":96,"N":80,"K":128
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[320, 256], pl.FP16], b: pl.Tensor[[256, 208], pl.FP16],
          c: pl.Out[pl.Tensor[[320, 208], pl.FP32]]) -> pl.Tensor[[320, 208], pl.FP32]:
        acc0 = pl.tile.create([320, 208], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 2, init_values=(acc0,), stage=2):
            k0 = kb * 128
            ta = pl.load(a, [0, k0], [320, 128], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [k0, 0], [128, 208], target_memory=pl.Mem.Mat)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
            acc = pl.yield_(acc2)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[320, 256], pl.FP16], b: pl.Tensor[[256, 208], pl.FP16],
             c: pl.Out[pl.Tensor[[320, 208], pl.FP32]]) -> pl.Tensor[[320, 208], pl.FP32]:
        c = self.k(a, b, c)
        return c
