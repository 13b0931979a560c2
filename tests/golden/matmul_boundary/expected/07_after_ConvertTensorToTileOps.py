# pypto.program: matmul
import pypto.language as pl


@pl.program
class matmul:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_incore_0(self, a: pl.Tensor[[320, 64], pl.BF16], b: pl.Tensor[[64, 320], pl.BF16], c: pl.Out[pl.Tensor[[320, 320], pl.FP32]]) -> pl.Tensor[[320, 320], pl.FP32]:
        a__tile: pl.Tile[[320, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [320, 64], [320, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[64, 320], pl.BF16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 320], [64, 320], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        t__tmp_v0: pl.Tile[[320, 320], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a__tile, b__tile)
        c__store: pl.Tensor[[320, 320], pl.FP32] = pl.tile.store(t__tmp_v0, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul(self, a: pl.Tensor[[320, 64], pl.BF16], b: pl.Tensor[[64, 320], pl.BF16], c: pl.Out[pl.Tensor[[320, 320], pl.FP32]]) -> pl.Tensor[[320, 320], pl.FP32]:
        c__ssa_v0: pl.Tensor[[320, 320], pl.FP32] = self.matmul_incore_0(a, b, c)
        return c__ssa_v0
