# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[384, 128], pl.FP16], b: pl.Tensor[[128, 336], pl.FP16], e: pl.Tensor[[336, 32], pl.FP16], d: pl.Out[pl.Tensor[[384, 32], pl.FP32]]) -> pl.Tensor[[384, 32], pl.FP32]:
        ta: pl.Tile[[384, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [384, 128], [384, 128], target_memory=pl.Mem.Mat)
        tb: pl.Tile[[128, 336], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [128, 336], [128, 336], target_memory=pl.Mem.Mat)
        te: pl.Tile[[336, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(e, [0, 0], [336, 32], [336, 32], target_memory=pl.Mem.Mat)
        c__mat_v0: pl.Tile[[384, 336], pl.FP16, pl.Mem.Mat] = pl.tile.create([384, 336], target_memory=pl.Mem.Mat, dtype=pl.FP16)
        for mi__idx_v1, (out__iter_v2,) in pl.range(0, 384, 192, init_values=(c__mat_v0,)):
            c__l0a_v3: pl.Tile[[192, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, mi__idx_v1, 0, [192, 128], target_memory=pl.Mem.Left)
            for ni__idx_v4, (out__iter_v5,) in pl.pipeline(0, 256, 128, init_values=(out__iter_v2,), stage=2):
                c__l0b_v6: pl.Tile[[128, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, ni__idx_v4, [128, 128], target_memory=pl.Mem.Right)
                c__acc_v7: pl.Tile[[192, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(c__l0a_v3, c__l0b_v6)
                c__mat_v8: pl.Tile[[384, 336], pl.FP16, pl.Mem.Mat] = pl.tile.assemble(out__iter_v5, c__acc_v7, [mi__idx_v1, ni__idx_v4])
                out__rv_v9: pl.Tile[[384, 336], pl.FP16, pl.Mem.Mat] = pl.yield_(c__mat_v8)
            c__l0b_v10: pl.Tile[[128, 80], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, 256, [128, 80], target_memory=pl.Mem.Right)
            c__acc_v11: pl.Tile[[192, 80], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(c__l0a_v3, c__l0b_v10)
            c__mat_v12: pl.Tile[[384, 336], pl.FP16, pl.Mem.Mat] = pl.tile.assemble(out__rv_v9, c__acc_v11, [mi__idx_v1, 256])
            out__rv_v13: pl.Tile[[384, 336], pl.FP16, pl.Mem.Mat] = pl.yield_(c__mat_v12)
        dd__l0_init_v14: pl.Tile[[384, 32], pl.FP32, pl.Mem.Acc] = pl.tile.create([384, 32], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for ko__idx_v15, (dd__iter_v16,) in pl.pipeline(0, 336, 16, init_values=(dd__l0_init_v14,), stage=2):
            dd__l0a_v17: pl.Tile[[384, 16], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(out__rv_v13, 0, ko__idx_v15, [384, 16], target_memory=pl.Mem.Left)
            dd__l0b_v18: pl.Tile[[16, 32], pl.FP16, pl.Mem.Right] = pl.tile.extract(te, ko__idx_v15, 0, [16, 32], target_memory=pl.Mem.Right)
            dd__acc_v19: pl.Tile[[384, 32], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(dd__iter_v16, dd__l0a_v17, dd__l0b_v18, ko__idx_v15 == 0)
            dd__rv_v20: pl.Tile[[384, 32], pl.FP32, pl.Mem.Acc] = pl.yield_(dd__acc_v19)
        d2: pl.Tensor[[384, 32], pl.FP32] = pl.tile.store(dd__rv_v20, [0, 0], d)
        return d2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[384, 128], pl.FP16], b: pl.Tensor[[128, 336], pl.FP16], e: pl.Tensor[[336, 32], pl.FP16], d: pl.Out[pl.Tensor[[384, 32], pl.FP32]]) -> pl.Tensor[[384, 32], pl.FP32]:
        d__ssa_v0: pl.Tensor[[384, 32], pl.FP32] = self.k(a, b, e, d)
        return d__ssa_v0
