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
        t__tmp_v0: pl.Tile[[112, 80], pl.FP32, pl.Mem.Acc, pl.TileView(valid_shape=[100, 80])] = pl.tile.matmul(a__tile_t, b__tile_t)
        c__store: pl.Tensor[[100, 80], pl.FP32] = pl.tile.store(t__tmp_v0, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_trans(self, a: pl.Tensor[[512, 100], pl.FP16], b: pl.Tensor[[80, 512], pl.FP16], c: pl.Out[pl.Tensor[[100, 80], pl.FP32]]) -> pl.Tensor[[100, 80], pl.FP32]:
        c__ssa_v0: pl.Tensor[[100, 80], pl.FP32] = self.matmul_trans_incore_0(a, b, c)
        return c__ssa_v0
