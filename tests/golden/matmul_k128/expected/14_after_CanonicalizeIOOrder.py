# pypto.program: matmul_k128
import pypto.language as pl


@pl.program
class matmul_k128:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_k128_incore_0(self, a: pl.Tensor[[128, 128], pl.FP16], b: pl.Tensor[[128, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        a__tile: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        a__tile_Left: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left] = pl.tile.move(a__tile, target_memory=pl.Mem.Left)
        b__tile_Right: pl.Tile[[128, 128], pl.FP16, pl.Mem.Right] = pl.tile.move(b__tile, target_memory=pl.Mem.Right)
        t__tmp_v0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a__tile_Left, b__tile_Right)
        c__store: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t__tmp_v0, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_k128(self, a: pl.Tensor[[128, 128], pl.FP16], b: pl.Tensor[[128, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = self.matmul_k128_incore_0(a, b, c)
        return c__ssa_v0
