# Canonical split-K chain, INT8, only A transposed (a_trans at tile level): the [224, 256] INT32 Acc exceeds L0C; the
# sub-tiles narrow the columns of each A^T [128, 224] panel load in whole 32-row ZN boxes (M sub-tiles 128 + 96).
# expect-json: "M":96,"N":128,"K":128,"m":96,"n":128,"k":128
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, at: pl.Tensor[[512, 224], pl.INT8], b: pl.Tensor[[512, 256], pl.INT8],
          c: pl.Out[pl.Tensor[[224, 256], pl.INT32]]) -> pl.Tensor[[224, 256], pl.INT32]:
        acc0 = pl.tile.create([224, 256], dtype=pl.INT32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 4, init_values=(acc0,), stage=2):
            k0 = kb * 128
            tan = pl.load(at, [k0, 0], [128, 224], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [k0, 0], [128, 256], target_memory=pl.Mem.Mat)
            ta = pl.tile.transpose_view(tan)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
            acc = pl.yield_(acc2)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, at: pl.Tensor[[512, 224], pl.INT8], b: pl.Tensor[[512, 256], pl.INT8],
             c: pl.Out[pl.Tensor[[224, 256], pl.INT32]]) -> pl.Tensor[[224, 256], pl.INT32]:
        c = self.k(at, b, c)
        return c
