# pypto.program: matmul_k128
import pypto.language as pl


@pl.program
class matmul_k128:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_k128_incore_0(self, a: pl.Tensor[[128, 128], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 32768)], b: pl.Tensor[[128, 128], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 32768)], c: pl.Out[pl.Tensor[[128, 128], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 65536)]]) -> pl.Tensor[[128, 128], pl.FP32]:
        mem_mat_3: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 32768)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 32768)
        mem_left_5: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 32768)
        mem_right_6: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 32768)
        mem_acc_7: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 65536)
        a__tile: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_mat_3, pl.const(0, pl.INT64), 32768), pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_mat_4, pl.const(32768, pl.INT64), 32768), pl.Mem.Mat] = pl.tile.load(b, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        a__tile_Left: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_left_5, pl.const(0, pl.INT64), 32768), pl.Mem.Left] = pl.tile.move(a__tile, target_memory=pl.Mem.Left)
        b__tile_Right: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_right_6, pl.const(0, pl.INT64), 32768), pl.Mem.Right] = pl.tile.move(b__tile, target_memory=pl.Mem.Right)
        t__tmp_v0: pl.Tile[[128, 128], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 65536), pl.Mem.Acc] = pl.tile.matmul(a__tile_Left, b__tile_Right)
        c__store: pl.Tensor[[128, 128], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 65536)] = pl.tile.store(t__tmp_v0, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_k128(self, a: pl.Tensor[[128, 128], pl.FP16], b: pl.Tensor[[128, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = self.matmul_k128_incore_0(a, b, c, attrs={"arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing]})
        return c__ssa_v0
