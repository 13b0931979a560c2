# pypto.program: matmul
import pypto.language as pl


@pl.program
class matmul:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_incore_0(self, a: pl.Tensor[[256, 64], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 32768)], b: pl.Tensor[[64, 256], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 32768)], c: pl.Out[pl.Tensor[[256, 256], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 262144)]]) -> pl.Tensor[[256, 256], pl.FP32]:
        mem_mat_3: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 32768)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 32768)
        mem_right_5: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 32768)
        mem_left_6: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 16384)
        mem_left_7: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 16384)
        mem_acc_8: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 131072)
        a__tile: pl.Tile[[256, 64], pl.FP16, pl.MemRef(mem_mat_3, pl.const(0, pl.INT64), 32768), pl.Mem.Mat] = pl.tile.load(a, [0, 0], [256, 64], [256, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[64, 256], pl.FP16, pl.MemRef(mem_mat_4, pl.const(0, pl.INT64), 32768), pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 256], [64, 256], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        c__l0b_v0: pl.Tile[[64, 256], pl.FP16, pl.MemRef(mem_right_5, pl.const(0, pl.INT64), 32768), pl.Mem.Right] = pl.tile.extract(b__tile, 0, 0, [64, 256], target_memory=pl.Mem.Right)
        for ni__idx_v1, (out__iter_v2,) in pl.range(0, 256, 256, init_values=(c,)):
            c__l0a_v3: pl.Tile[[128, 64], pl.FP16, pl.MemRef(mem_left_6, pl.const(0, pl.INT64), 16384), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, ni__idx_v1, 0, [128, 64], target_memory=pl.Mem.Left)
            c__l0a_v3_1: pl.Tile[[128, 64], pl.FP16, pl.MemRef(mem_left_7, pl.const(0, pl.INT64), 16384), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, ni__idx_v1 + 128, 0, [128, 64], target_memory=pl.Mem.Left)
            c__acc_v4: pl.Tile[[128, 256], pl.FP32, pl.MemRef(mem_acc_8, pl.const(0, pl.INT64), 131072), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v3, c__l0b_v0)
            c__out_v5: pl.Tensor[[256, 256], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 262144)] = pl.tile.store(c__acc_v4, [ni__idx_v1, 0], out__iter_v2)
            c__acc_v4_1: pl.Tile[[128, 256], pl.FP32, pl.MemRef(mem_acc_8, pl.const(0, pl.INT64), 131072), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v3_1, c__l0b_v0)
            c__out_v5_1: pl.Tensor[[256, 256], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 262144)] = pl.tile.store(c__acc_v4_1, [ni__idx_v1 + 128, 0], c__out_v5)
            out__rv_v6: pl.Tensor[[256, 256], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 262144)] = pl.yield_(c__out_v5_1)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul(self, a: pl.Tensor[[256, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        c__ssa_v0: pl.Tensor[[256, 256], pl.FP32] = self.matmul_incore_0(a, b, c)
        return c__ssa_v0
