# pypto.program: matmul
import pypto.language as pl


@pl.program
class matmul:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def matmul_incore_0(self, a: pl.Tensor[[320, 64], pl.BF16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 40960)], b: pl.Tensor[[64, 320], pl.BF16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 40960)], c: pl.Out[pl.Tensor[[320, 320], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 409600)]]) -> pl.Tensor[[320, 320], pl.FP32]:
        mem_mat_3: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 40960)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 40960)
        mem_left_5: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 20480)
        mem_right_6: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 16384)
        mem_right_7: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 16384)
        mem_acc_8: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 81920)
        a__tile: pl.Tile[[320, 64], pl.BF16, pl.MemRef(mem_mat_3, pl.const(0, pl.INT64), 40960), pl.Mem.Mat] = pl.tile.load(a, [0, 0], [320, 64], [320, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[64, 320], pl.BF16, pl.MemRef(mem_mat_4, pl.const(40960, pl.INT64), 40960), pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 320], [64, 320], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        for mi__idx_v0, (out__iter_v1,) in pl.range(0, 320, 160, init_values=(c,)):
            c__l0a_v2: pl.Tile[[160, 64], pl.BF16, pl.MemRef(mem_left_5, pl.const(0, pl.INT64), 20480), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, mi__idx_v0, 0, [160, 64], target_memory=pl.Mem.Left)
            for ni__idx_v3, (out__iter_v4,) in pl.range(0, 256, 256, init_values=(out__iter_v1,)):
                c__l0b_v5: pl.Tile[[64, 128], pl.BF16, pl.MemRef(mem_right_6, pl.const(0, pl.INT64), 16384), pl.Mem.Right] = pl.tile.extract(b__tile, 0, ni__idx_v3, [64, 128], target_memory=pl.Mem.Right)
                c__l0b_v5_1: pl.Tile[[64, 128], pl.BF16, pl.MemRef(mem_right_7, pl.const(16384, pl.INT64), 16384), pl.Mem.Right] = pl.tile.extract(b__tile, 0, ni__idx_v3 + 128, [64, 128], target_memory=pl.Mem.Right)
                c__acc_v6: pl.Tile[[160, 128], pl.FP32, pl.MemRef(mem_acc_8, pl.const(0, pl.INT64), 81920), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v2, c__l0b_v5)
                c__out_v7: pl.Tensor[[320, 320], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 409600)] = pl.tile.store(c__acc_v6, [mi__idx_v0, ni__idx_v3], out__iter_v4)
                c__acc_v6_1: pl.Tile[[160, 128], pl.FP32, pl.MemRef(mem_acc_8, pl.const(0, pl.INT64), 81920), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v2, c__l0b_v5_1)
                c__out_v7_1: pl.Tensor[[320, 320], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 409600)] = pl.tile.store(c__acc_v6_1, [mi__idx_v0, ni__idx_v3 + 128], c__out_v7)
                out__rv_v8: pl.Tensor[[320, 320], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 409600)] = pl.yield_(c__out_v7_1)
            c__l0b_v9: pl.Tile[[64, 64], pl.BF16, pl.MemRef(mem_right_6, pl.const(0, pl.INT64), 8192), pl.Mem.Right] = pl.tile.extract(b__tile, 0, 256, [64, 64], target_memory=pl.Mem.Right)
            c__acc_v10: pl.Tile[[160, 64], pl.FP32, pl.MemRef(mem_acc_8, pl.const(0, pl.INT64), 40960), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v2, c__l0b_v9)
            c__out_v11: pl.Tensor[[320, 320], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 409600)] = pl.tile.store(c__acc_v10, [mi__idx_v0, 256], out__rv_v8)
            out__rv_v12: pl.Tensor[[320, 320], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 409600)] = pl.yield_(c__out_v11)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator, auto_scope=False)
    def matmul(self, a: pl.Tensor[[320, 64], pl.BF16], b: pl.Tensor[[64, 320], pl.BF16], c: pl.Out[pl.Tensor[[320, 320], pl.FP32]]) -> pl.Tensor[[320, 320], pl.FP32]:
        with pl.scope():
            c__ssa_v0: pl.Tensor[[320, 320], pl.FP32] = self.matmul_incore_0(a, b, c, attrs={"arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing]})
        return c__ssa_v0
