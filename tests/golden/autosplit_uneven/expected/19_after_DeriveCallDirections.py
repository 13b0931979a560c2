# pypto.program: mm
import pypto.language as pl


@pl.program
class mm:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_incore_0(self, b: pl.Tensor[[128, 330], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 84480)], a: pl.Tensor[[200, 128], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 51200)], c: pl.Out[pl.Tensor[[200, 330], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 264000)]]) -> pl.Tensor[[200, 330], pl.FP32]:
        mem_mat_3: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 53248)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 24576)
        mem_acc_5: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 79872)
        mem_left_6: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 26624)
        mem_right_7: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 12288)
        mem_left_8: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 26624)
        mem_right_9: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 12288)
        blk__spmd_v1: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
        c0__spmd_v2: pl.Scalar[pl.INDEX] = blk__spmd_v1 * 96
        a__tile: pl.Tile[[208, 128], pl.FP16, pl.MemRef(mem_mat_3, pl.const(0, pl.INT64), 53248), pl.Mem.Mat, pl.TileView(valid_shape=[200, 128])] = pl.tile.load(a, [0, 0], [208, 128], [200, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__blk_v3__tile: pl.Tile[[128, 96], pl.FP16, pl.MemRef(mem_mat_4, pl.const(53248, pl.INT64), 24576), pl.Mem.Mat] = pl.tile.load(b, [0, c0__spmd_v2], [128, 96], [128, 96], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        t__l0_init_v0: pl.Tile[[208, 96], pl.FP32, pl.MemRef(mem_acc_5, pl.const(0, pl.INT64), 79872), pl.Mem.Acc] = pl.tile.create([208, 96], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for ko__idx_v1, (t__iter_v2,) in pl.range(0, 128, 128, init_values=(t__l0_init_v0,)):
            t__l0a_v3: pl.Tile[[208, 64], pl.FP16, pl.MemRef(mem_left_6, pl.const(0, pl.INT64), 26624), pl.Mem.Left, pl.TileView(valid_shape=[200, 64], blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, 0, ko__idx_v1, [208, 64], target_memory=pl.Mem.Left)
            t__l0b_v4: pl.Tile[[64, 96], pl.FP16, pl.MemRef(mem_right_7, pl.const(0, pl.INT64), 12288), pl.Mem.Right] = pl.tile.extract(b__blk_v3__tile, ko__idx_v1, 0, [64, 96], target_memory=pl.Mem.Right)
            t__l0a_v3_1: pl.Tile[[208, 64], pl.FP16, pl.MemRef(mem_left_8, pl.const(26624, pl.INT64), 26624), pl.Mem.Left, pl.TileView(valid_shape=[200, 64], blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, 0, ko__idx_v1 + 64, [208, 64], target_memory=pl.Mem.Left)
            t__l0b_v4_1: pl.Tile[[64, 96], pl.FP16, pl.MemRef(mem_right_9, pl.const(12288, pl.INT64), 12288), pl.Mem.Right] = pl.tile.extract(b__blk_v3__tile, ko__idx_v1 + 64, 0, [64, 96], target_memory=pl.Mem.Right)
            t__acc_v5: pl.Tile[[208, 96], pl.FP32, pl.MemRef(mem_acc_5, pl.const(0, pl.INT64), 79872), pl.Mem.Acc] = pl.tile.matmul_acc(t__iter_v2, t__l0a_v3, t__l0b_v4, ko__idx_v1 == 0)
            t__acc_v5_1: pl.Tile[[208, 96], pl.FP32, pl.MemRef(mem_acc_5, pl.const(0, pl.INT64), 79872), pl.Mem.Acc] = pl.tile.matmul_acc(t__acc_v5, t__l0a_v3_1, t__l0b_v4_1, ko__idx_v1 + 64 == 0)
            t__rv_v6: pl.Tile[[208, 96], pl.FP32, pl.MemRef(mem_acc_5, pl.const(0, pl.INT64), 79872), pl.Mem.Acc] = pl.yield_(t__acc_v5_1)
        t__valid_v7: pl.Tile[[208, 96], pl.FP32, pl.MemRef(mem_acc_5, pl.const(0, pl.INT64), 79872), pl.Mem.Acc, pl.TileView(valid_shape=[200, 96])] = pl.tile.set_validshape(t__rv_v6, 200, 96)
        c__store: pl.Tensor[[200, 330], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 264000)] = pl.tile.store(t__valid_v7, [0, c0__spmd_v2], c)
        return c

    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_incore_1(self, b: pl.Tensor[[128, 330], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 84480)], a: pl.Tensor[[200, 128], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 51200)], c__ssa_v0: pl.Out[pl.Tensor[[200, 330], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 264000)]]) -> pl.Tensor[[200, 330], pl.FP32]:
        mem_mat_3: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 53248)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 12288)
        mem_left_5: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 53248)
        mem_right_6: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 8192)
        mem_acc_7: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 26624)
        c0__spmd_v4: pl.Scalar[pl.INDEX] = 288
        a__tile: pl.Tile[[208, 128], pl.FP16, pl.MemRef(mem_mat_3, pl.const(0, pl.INT64), 53248), pl.Mem.Mat, pl.TileView(valid_shape=[200, 128])] = pl.tile.load(a, [0, 0], [208, 128], [200, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__blk_v5__tile: pl.Tile[[128, 42], pl.FP16, pl.MemRef(mem_mat_4, pl.const(53248, pl.INT64), 12288), pl.Mem.Mat] = pl.tile.load(b, [0, c0__spmd_v4], [128, 42], [128, 42], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        c__l0a_v8: pl.Tile[[208, 128], pl.FP16, pl.MemRef(mem_left_5, pl.const(0, pl.INT64), 53248), pl.Mem.Left, pl.TileView(valid_shape=[200, 128], blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, 0, 0, [208, 128], target_memory=pl.Mem.Left)
        c__l0b_v9: pl.Tile[[128, 32], pl.FP16, pl.MemRef(mem_right_6, pl.const(0, pl.INT64), 8192), pl.Mem.Right] = pl.tile.extract(b__blk_v5__tile, 0, 0, [128, 32], target_memory=pl.Mem.Right)
        c__acc_v10: pl.Tile[[208, 32], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 26624), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v8, c__l0b_v9)
        c__valid_v11: pl.Tile[[208, 32], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 26624), pl.Mem.Acc, pl.TileView(valid_shape=[200, 32])] = pl.tile.set_validshape(c__acc_v10, 200, 32)
        c__out_v12: pl.Tensor[[200, 330], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 264000)] = pl.tile.store(c__valid_v11, [0, c0__spmd_v4], c__ssa_v0)
        c__l0b_v13: pl.Tile[[128, 10], pl.FP16, pl.MemRef(mem_right_6, pl.const(0, pl.INT64), 4096), pl.Mem.Right] = pl.tile.extract(b__blk_v5__tile, 0, 32, [128, 10], target_memory=pl.Mem.Right)
        c__acc_v14: pl.Tile[[208, 10], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 13312), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v8, c__l0b_v13)
        c__valid_v15: pl.Tile[[208, 10], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 13312), pl.Mem.Acc, pl.TileView(valid_shape=[200, 10])] = pl.tile.set_validshape(c__acc_v14, 200, 10)
        c__out_v16: pl.Tensor[[200, 330], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 264000)] = pl.tile.store(c__valid_v15, [0, c0__spmd_v4 + 32], c__out_v12)
        return c__ssa_v0

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mm(self, a: pl.Tensor[[200, 128], pl.FP16], b: pl.Tensor[[128, 330], pl.FP16], c: pl.Out[pl.Tensor[[200, 330], pl.FP32]]) -> pl.Tensor[[200, 330], pl.FP32]:
        with pl.spmd(3):
            c__ssa_v0: pl.Tensor[[200, 330], pl.FP32] = self.mm_incore_0(b, a, c, attrs={"arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing]})
        c__ssa_v0_1: pl.Tensor[[200, 330], pl.FP32] = self.mm_incore_1(b, a, c__ssa_v0, attrs={"split_sibling": True, "arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing]})
        return c__ssa_v0_1
