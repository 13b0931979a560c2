# pypto.program: matmul_trans
import pypto.language as pl


@pl.program
class matmul_trans:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_trans_incore_0(self, a: pl.Tensor[[512, 100], pl.FP16], b: pl.Tensor[[80, 512], pl.FP16], c: pl.Out[pl.Tensor[[100, 80], pl.FP32]]) -> pl.Tensor[[100, 80], pl.FP32]:
        a__tile: pl.Tile[[512, 112], pl.FP16, pl.Mem.Mat, pl.TileView(valid_shape=[512, 100])] = pl.tile.load(a, [0, 0], [512, 112], [512, 100], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        a__tile_t: pl.Tile[[112, 512], pl.FP16, pl.Mem.Mat, pl.TileView(valid_shape=[100, 512], blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)] = pl.tile.transpose_view(a__tile)
        b__tile: pl.Tile[[80, 512], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [80, 512], [80, 512], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile_t: pl.Tile[[512, 80], pl.FP16, pl.Mem.Mat, pl.TileView(blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.col_major)] = pl.tile.transpose_view(b__tile)
        t__l0_init_v0: pl.Tile[[112, 80], pl.FP32, pl.Mem.Acc] = pl.tile.create([112, 80], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for ko__idx_v1, (t__iter_v2,) in pl.pipeline(0, 512, 128, init_values=(t__l0_init_v0,), stage=2):
            t__l0a_v3: pl.Tile[[112, 128], pl.FP16, pl.Mem.Left, pl.TileView(valid_shape=[100, 128], blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile_t, 0, ko__idx_v1, [112, 128], target_memory=pl.Mem.Left)
            t__l0b_v4: pl.Tile[[128, 80], pl.FP16, pl.Mem.Right] = pl.tile.extract(b__tile_t, ko__idx_v1, 0, [128, 80], target_memory=pl.Mem.Right)
            t__acc_v5: pl.Tile[[112, 80], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t__iter_v2, t__l0a_v3, t__l0b_v4, ko__idx_v1 == 0)
            t__rv_v6: pl.Tile[[112, 80], pl.FP32, pl.Mem.Acc] = pl.yield_(t__acc_v5)
        t__valid_v7: pl.Tile[[112, 80], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[100, 80])] = pl.tile.set_validshape(t__rv_v6, 100, 80)
        c__store: pl.Tensor[[100, 80], pl.FP32] = pl.tile.store(t__valid_v7, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_trans(self, a: pl.Tensor[[512, 100], pl.FP16], b: pl.Tensor[[80, 512], pl.FP16], c: pl.Out[pl.Tensor[[100, 80], pl.FP32]]) -> pl.Tensor[[100, 80], pl.FP32]:
        c__ssa_v0: pl.Tensor[[100, 80], pl.FP32] = self.matmul_trans_incore_0(a, b, c)
        return c__ssa_v0
