# pypto.program: fence
import pypto.language as pl


@pl.program
class fence:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def fence_0_aic(self, a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 64], pl.FP16], c: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]]:
        a__tile: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [64, 128], [64, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [128, 64], [128, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        a__tile_Left: pl.Tile[[64, 128], pl.FP16, pl.Mem.Left] = pl.tile.move(a__tile, target_memory=pl.Mem.Left)
        b__tile_Right: pl.Tile[[128, 64], pl.FP16, pl.Mem.Right] = pl.tile.move(b__tile, target_memory=pl.Mem.Right)
        t__tmp_v0: pl.Tile[[64, 64], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(a__tile_Left, b__tile_Right)
        c__store: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(t__tmp_v0, [0, 0], c)
        pl.tile.tpush_to_aiv(split=0, slot_num=2, after=pl.Mem.Acc)
        return c, out

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def fence_0_aiv(self, a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 64], pl.FP16], c: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]]:
        pl.func_attr({"lane": 0})
        pl.tile.tpop_from_aic(split=0, slot_num=2)
        pl.tile.tfree_to_aic(split=0, slot_num=2)
        c__store__vec: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(c, [0, 0], [64, 64], [64, 64], target_memory=pl.Mem.Vec)
        t__tmp_v1: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(c__store__vec)
        out__store: pl.Tensor[[64, 64], pl.FP32] = pl.tile.store(t__tmp_v1, [0, 0], out)
        return c, out

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def fence_0(self, a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 64], pl.FP16], c: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]]:
        fence_0_aic_ret: pl.Tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]] = self.fence_0_aic(a, b, c, out)
        fence_0_aiv_ret: pl.Tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]] = self.fence_0_aiv(a, b, c, out)
        return fence_0_aiv_ret[0], fence_0_aiv_ret[1]

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def fence(self, a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 64], pl.FP16], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]]:
        ret: pl.Tuple[pl.Tensor[[64, 64], pl.FP32], pl.Tensor[[64, 64], pl.FP32]] = self.fence_0(a, b, c, out)
        c__ssa_v0: pl.Tensor[[64, 64], pl.FP32] = ret[0]
        out__ssa_v1: pl.Tensor[[64, 64], pl.FP32] = ret[1]
        return c__ssa_v0, out__ssa_v1
