# Canonical split-K chain with transposed operands (tile level): A stored [K, M], B stored [N, K], each K panel loaded
# as stored into Mat and read through tile.transpose_view; the [256, 256] FP32 Acc exceeds L0C, so AutoTileMatmulL0
# clones the K loop per output sub-tile, narrowing the columns of the A^T load and the rows of the B^T load.
# expect-json: "M":128,"N":128,"K":128,"m":128,"n":128,"k":64
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, at: pl.Tensor[[512, 256], pl.FP16], bt: pl.Tensor[[256, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        acc0 = pl.tile.create([256, 256], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 4, init_values=(acc0,), stage=2):
            k0 = kb * 128
            tan = pl.load(at, [k0, 0], [128, 256], target_memory=pl.Mem.Mat)
            tbn = pl.load(bt, [0, k0], [256, 128], target_memory=pl.Mem.Mat)
            ta = pl.tile.transpose_view(tan)
            tb = pl.tile.transpose_view(tbn)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
            acc = pl.yield_(acc2)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, at: pl.Tensor[[512, 256], pl.FP16], bt: pl.Tensor[[256, 512], pl.FP16],
             c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        c = self.k(at, bt, c)
        return c
