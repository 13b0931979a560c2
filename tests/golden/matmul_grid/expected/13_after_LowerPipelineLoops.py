# pypto.program: mm_grid
import pypto.language as pl


@pl.program
class mm_grid:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_grid_incore_0(self, a: pl.Tensor[[512, 128], pl.FP16], b: pl.Tensor[[128, 512], pl.FP16], c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]) -> pl.Tensor[[512, 512], pl.FP32]:
        a__tile: pl.Tile[[512, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [512, 128], [512, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[128, 512], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [128, 512], [128, 512], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        for mi__idx_v0, (out__iter_v1,) in pl.range(0, 512, 256, init_values=(c,)):
            c__l0b_v2: pl.Tile[[128, 256], pl.FP16, pl.Mem.Right] = pl.tile.extract(b__tile, 0, mi__idx_v0, [128, 256], target_memory=pl.Mem.Right)
            for ni__idx_v3, (out__iter_v4,) in pl.pipeline(0, 512, 256, init_values=(out__iter_v1,), stage=1):
                c__l0a_v5: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, ni__idx_v3, 0, [128, 128], target_memory=pl.Mem.Left, attrs={"pipeline_membership": "0:0"})
                c__acc_v6: pl.Tile[[128, 256], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(c__l0a_v5, c__l0b_v2)
                c__out_v7: pl.Tensor[[512, 512], pl.FP32] = pl.tile.store(c__acc_v6, [ni__idx_v3, mi__idx_v0], out__iter_v4)
                c__l0a_v5_1: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, ni__idx_v3 + 128, 0, [128, 128], target_memory=pl.Mem.Left, attrs={"pipeline_membership": "0:1"})
                c__acc_v6_1: pl.Tile[[128, 256], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(c__l0a_v5_1, c__l0b_v2)
                c__out_v7_1: pl.Tensor[[512, 512], pl.FP32] = pl.tile.store(c__acc_v6_1, [ni__idx_v3 + 128, mi__idx_v0], c__out_v7)
                out__rv_v8: pl.Tensor[[512, 512], pl.FP32] = pl.yield_(c__out_v7_1)
            out__rv_v9: pl.Tensor[[512, 512], pl.FP32] = pl.yield_(out__rv_v8)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mm_grid(self, a: pl.Tensor[[512, 128], pl.FP16], b: pl.Tensor[[128, 512], pl.FP16], c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]) -> pl.Tensor[[512, 512], pl.FP32]:
        c__ssa_v0: pl.Tensor[[512, 512], pl.FP32] = self.mm_grid_incore_0(a, b, c)
        return c__ssa_v0
