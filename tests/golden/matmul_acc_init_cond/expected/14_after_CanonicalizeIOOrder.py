# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[128, 640], pl.FP16], b: pl.Tensor[[640, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        acc: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([128, 128], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb, (acc__iter_v0,) in pl.range(2, init_values=(acc,)):
            ta: pl.Tile[[128, 320], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, kb * 320], [128, 320], [128, 320], target_memory=pl.Mem.Mat)
            tb: pl.Tile[[320, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [kb * 320, 0], [320, 128], [320, 128], target_memory=pl.Mem.Mat)
            for ko__idx_v0, (acc__iter_v1,) in pl.range(0, 320, 160, init_values=(acc__iter_v0,)):
                acc__l0a_v2: pl.Tile[[128, 80], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, ko__idx_v0, [128, 80], target_memory=pl.Mem.Left, attrs={"pipeline_membership": "0:0"})
                acc__l0b_v3: pl.Tile[[80, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, ko__idx_v0, 0, [80, 128], target_memory=pl.Mem.Right, attrs={"pipeline_membership": "0:0"})
                acc__l0a_v2_1: pl.Tile[[128, 80], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, ko__idx_v0 + 80, [128, 80], target_memory=pl.Mem.Left, attrs={"pipeline_membership": "0:1"})
                acc__l0b_v3_1: pl.Tile[[80, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, ko__idx_v0 + 80, 0, [80, 128], target_memory=pl.Mem.Right, attrs={"pipeline_membership": "0:1"})
                acc__acc_v4: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc__iter_v1, acc__l0a_v2, acc__l0b_v3, kb == 0 and ko__idx_v0 == 0)
                acc__acc_v4_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc__acc_v4, acc__l0a_v2_1, acc__l0b_v3_1, kb == 0 and ko__idx_v0 + 80 == 0)
                acc__rv_v5: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc__acc_v4_1)
            acc__rv_v2: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc__rv_v5)
        c2: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(acc__rv_v2, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[128, 640], pl.FP16], b: pl.Tensor[[640, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__ssa_v3: pl.Tensor[[128, 128], pl.FP32] = self.k(a, b, c)
        return c__ssa_v3
