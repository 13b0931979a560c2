# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], bias: pl.Tensor[[1, 128], pl.FP32], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        ta: pl.Tile[[128, 512], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 512], [128, 512], target_memory=pl.Mem.Mat)
        tb: pl.Tile[[512, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [512, 128], [512, 128], target_memory=pl.Mem.Mat)
        tbias: pl.Tile[[1, 128], pl.FP32, pl.Mem.Mat] = pl.tile.load(bias, [0, 0], [1, 128], [1, 128], target_memory=pl.Mem.Mat)
        acc__l0a_v0: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 0, [128, 128], target_memory=pl.Mem.Left)
        acc__l0b_v1: pl.Tile[[128, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, 0, [128, 128], target_memory=pl.Mem.Right)
        acc__acc_v2: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_bias(acc__l0a_v0, acc__l0b_v1, tbias)
        for ko__idx_v3, (acc__iter_v4,) in pl.pipeline(128, 512, 128, init_values=(acc__acc_v2,), stage=2):
            acc__l0a_v5: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, ko__idx_v3, [128, 128], target_memory=pl.Mem.Left)
            acc__l0b_v6: pl.Tile[[128, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, ko__idx_v3, 0, [128, 128], target_memory=pl.Mem.Right)
            acc__acc_v7: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc__iter_v4, acc__l0a_v5, acc__l0b_v6)
            acc__rv_v8: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc__acc_v7)
        c2: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(acc__rv_v8, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], bias: pl.Tensor[[1, 128], pl.FP32], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = self.k(a, b, bias, c)
        return c__ssa_v0
