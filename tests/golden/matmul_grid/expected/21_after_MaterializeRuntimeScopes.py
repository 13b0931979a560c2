# pypto.program: mm_grid
import pypto.language as pl


@pl.program
class mm_grid:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_grid_incore_0(self, a: pl.Tensor[[512, 128], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 131072)], b: pl.Tensor[[128, 512], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 131072)], c: pl.Out[pl.Tensor[[512, 512], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 1048576)]]) -> pl.Tensor[[512, 512], pl.FP32]:
        mem_mat_3: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 131072)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 131072)
        mem_right_5: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 65536)
        mem_left_6: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 32768)
        mem_left_7: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 32768)
        mem_acc_8: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 131072)
        a__tile: pl.Tile[[512, 128], pl.FP16, pl.MemRef(mem_mat_3, pl.const(0, pl.INT64), 131072), pl.Mem.Mat] = pl.tile.load(a, [0, 0], [512, 128], [512, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[128, 512], pl.FP16, pl.MemRef(mem_mat_4, pl.const(131072, pl.INT64), 131072), pl.Mem.Mat] = pl.tile.load(b, [0, 0], [128, 512], [128, 512], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        for mi__idx_v0, (out__iter_v1,) in pl.range(0, 512, 256, init_values=(c,)):
            c__l0b_v2: pl.Tile[[128, 256], pl.FP16, pl.MemRef(mem_right_5, pl.const(0, pl.INT64), 65536), pl.Mem.Right] = pl.tile.extract(b__tile, 0, mi__idx_v0, [128, 256], target_memory=pl.Mem.Right)
            for ni__idx_v3, (out__iter_v4,) in pl.range(0, 512, 256, init_values=(out__iter_v1,)):
                c__l0a_v5: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_left_6, pl.const(0, pl.INT64), 32768), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, ni__idx_v3, 0, [128, 128], target_memory=pl.Mem.Left)
                c__l0a_v5_1: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_left_7, pl.const(32768, pl.INT64), 32768), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, ni__idx_v3 + 128, 0, [128, 128], target_memory=pl.Mem.Left)
                c__acc_v6: pl.Tile[[128, 256], pl.FP32, pl.MemRef(mem_acc_8, pl.const(0, pl.INT64), 131072), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v5, c__l0b_v2)
                c__out_v7: pl.Tensor[[512, 512], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 1048576)] = pl.tile.store(c__acc_v6, [ni__idx_v3, mi__idx_v0], out__iter_v4)
                c__acc_v6_1: pl.Tile[[128, 256], pl.FP32, pl.MemRef(mem_acc_8, pl.const(0, pl.INT64), 131072), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v5_1, c__l0b_v2)
                c__out_v7_1: pl.Tensor[[512, 512], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 1048576)] = pl.tile.store(c__acc_v6_1, [ni__idx_v3 + 128, mi__idx_v0], c__out_v7)
                out__rv_v8: pl.Tensor[[512, 512], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 1048576)] = pl.yield_(c__out_v7_1)
            out__rv_v9: pl.Tensor[[512, 512], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 1048576)] = pl.yield_(out__rv_v8)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator, auto_scope=False)
    def mm_grid(self, a: pl.Tensor[[512, 128], pl.FP16], b: pl.Tensor[[128, 512], pl.FP16], c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]) -> pl.Tensor[[512, 512], pl.FP32]:
        with pl.scope():
            c__ssa_v0: pl.Tensor[[512, 512], pl.FP32] = self.mm_grid_incore_0(a, b, c, attrs={"arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing]})
        return c__ssa_v0
