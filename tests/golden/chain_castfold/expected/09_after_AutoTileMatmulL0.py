# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], e: pl.Tensor[[128, 64], pl.FP16], d: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        ta: pl.Tile[[128, 512], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 512], [128, 512], target_memory=pl.Mem.Mat)
        tb: pl.Tile[[512, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [512, 128], [512, 128], target_memory=pl.Mem.Mat)
        te: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(e, [0, 0], [128, 64], [128, 64], target_memory=pl.Mem.Mat)
        c__l0_init_v0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([128, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for ko__idx_v1, (c__iter_v2,) in pl.pipeline(0, 512, 128, init_values=(c__l0_init_v0,), stage=2):
            c__l0a_v3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, ko__idx_v1, [128, 128], target_memory=pl.Mem.Left)
            c__l0b_v4: pl.Tile[[128, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, ko__idx_v1, 0, [128, 128], target_memory=pl.Mem.Right)
            c__acc_v5: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(c__iter_v2, c__l0a_v3, c__l0b_v4, ko__idx_v1 == 0)
            c__rv_v6: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(c__acc_v5)
        cb__mat_v7: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.create([128, 128], target_memory=pl.Mem.Mat, dtype=pl.FP16)
        cb__mat_v8: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.assemble(cb__mat_v7, c__rv_v6, [0, 0])
        dd: pl.Tile[[128, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(cb__mat_v8, te)
        d2: pl.Tensor[[128, 64], pl.FP32] = pl.tile.store(dd, [0, 0], d)
        return d2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], e: pl.Tensor[[128, 64], pl.FP16], d: pl.Out[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        d__ssa_v0: pl.Tensor[[128, 64], pl.FP32] = self.k(a, b, e, d)
        return d__ssa_v0
