# pypto.program: matmul_k256
import pypto.language as pl


@pl.program
class matmul_k256:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_k256_incore_0(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        a__tile: pl.Tile[[128, 256], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 256], [128, 256], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[256, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [256, 128], [256, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        t__l0_init_v0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([128, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for ko__idx_v1, (t__iter_v2,) in pl.pipeline(0, 256, 128, init_values=(t__l0_init_v0,), stage=2):
            t__l0a_v3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, 0, ko__idx_v1, [128, 128], target_memory=pl.Mem.Left)
            t__l0b_v4: pl.Tile[[128, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(b__tile, ko__idx_v1, 0, [128, 128], target_memory=pl.Mem.Right)
            t__acc_v5: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t__iter_v2, t__l0a_v3, t__l0b_v4, ko__idx_v1 == 0)
            t__rv_v6: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t__acc_v5)
        c__store: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t__rv_v6, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_k256(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = self.matmul_k256_incore_0(a, b, c)
        return c__ssa_v0
