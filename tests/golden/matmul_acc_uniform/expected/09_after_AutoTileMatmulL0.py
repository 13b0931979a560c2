# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[128, 576], pl.FP16], b: pl.Tensor[[576, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        ta0: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 64], [128, 64], target_memory=pl.Mem.Mat)
        tb0: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
        acc0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(ta0, tb0)
        ta: pl.Tile[[128, 512], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 64], [128, 512], [128, 512], target_memory=pl.Mem.Mat)
        tb: pl.Tile[[512, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [64, 0], [512, 128], [512, 128], target_memory=pl.Mem.Mat)
        for ko__idx_v0, (acc__iter_v1,) in pl.pipeline(0, 512, 128, init_values=(acc0,), stage=2):
            acc__l0a_v2: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, ko__idx_v0, [128, 128], target_memory=pl.Mem.Left)
            acc__l0b_v3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, ko__idx_v0, 0, [128, 128], target_memory=pl.Mem.Right)
            acc__acc_v4: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc__iter_v1, acc__l0a_v2, acc__l0b_v3)
            acc__rv_v5: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc__acc_v4)
        c2: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(acc__rv_v5, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[128, 576], pl.FP16], b: pl.Tensor[[576, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = self.k(a, b, c)
        return c__ssa_v0
