# pypto.program: matmul
import pypto.language as pl


@pl.program
class matmul:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_incore_0(self, a: pl.Tensor[[320, 64], pl.BF16], b: pl.Tensor[[64, 320], pl.BF16], c: pl.Out[pl.Tensor[[320, 320], pl.FP32]]) -> pl.Tensor[[320, 320], pl.FP32]:
        a__tile: pl.Tile[[320, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [320, 64], [320, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[64, 320], pl.BF16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 320], [64, 320], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        for mi__idx_v0, (out__iter_v1,) in pl.range(0, 320, 160, init_values=(c,)):
            c__l0a_v2: pl.Tile[[160, 64], pl.BF16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, mi__idx_v0, 0, [160, 64], target_memory=pl.Mem.Left)
            for ni__idx_v3, (out__iter_v4,) in pl.pipeline(0, 256, 128, init_values=(out__iter_v1,), stage=2):
                c__l0b_v5: pl.Tile[[64, 128], pl.BF16, pl.Mem.Right] = pl.tile.extract(b__tile, 0, ni__idx_v3, [64, 128], target_memory=pl.Mem.Right)
                c__acc_v6: pl.Tile[[160, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(c__l0a_v2, c__l0b_v5)
                c__out_v7: pl.Tensor[[320, 320], pl.FP32] = pl.tile.store(c__acc_v6, [mi__idx_v0, ni__idx_v3], out__iter_v4)
                out__rv_v8: pl.Tensor[[320, 320], pl.FP32] = pl.yield_(c__out_v7)
            c__l0b_v9: pl.Tile[[64, 64], pl.BF16, pl.Mem.Right] = pl.tile.extract(b__tile, 0, 256, [64, 64], target_memory=pl.Mem.Right)
            c__acc_v10: pl.Tile[[160, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(c__l0a_v2, c__l0b_v9)
            c__out_v11: pl.Tensor[[320, 320], pl.FP32] = pl.tile.store(c__acc_v10, [mi__idx_v0, 256], out__rv_v8)
            out__rv_v12: pl.Tensor[[320, 320], pl.FP32] = pl.yield_(c__out_v11)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul(self, a: pl.Tensor[[320, 64], pl.BF16], b: pl.Tensor[[64, 320], pl.BF16], c: pl.Out[pl.Tensor[[320, 320], pl.FP32]]) -> pl.Tensor[[320, 320], pl.FP32]:
        c__ssa_v0: pl.Tensor[[320, 320], pl.FP32] = self.matmul_incore_0(a, b, c)
        return c__ssa_v0
