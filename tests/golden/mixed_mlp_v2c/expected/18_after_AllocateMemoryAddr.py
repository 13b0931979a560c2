# pypto.program: fused_mlp
import pypto.language as pl


@pl.program
class fused_mlp:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mlp_aic(self, x: pl.Tensor[[64, 128], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)], w1: pl.Tensor[[128, 256], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 65536)], w2: pl.Tensor[[256, 128], pl.FP16, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 65536)], out: pl.Out[pl.Tensor[[64, 128], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 32768)]]) -> pl.Tensor[[64, 128], pl.FP32]:
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 65536, ring_slots=2)
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 16384)
        mem_mat_6: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 65536)
        mem_acc_7: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 65536)
        mem_right_9: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 32768)
        mem_right_11: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 32768)
        mem_left_14: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 16384)
        mem_left_16: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 16384)
        x__tile: pl.Tile[[64, 128], pl.FP16, pl.MemRef(mem_mat_5, pl.const(65536, pl.INT64), 16384), pl.Mem.Mat] = pl.tile.load(x, [0, 0], [64, 128], [64, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        w1__tile: pl.Tile[[128, 256], pl.FP16, pl.MemRef(mem_mat_6, pl.const(81920, pl.INT64), 65536), pl.Mem.Mat] = pl.tile.load(w1, [0, 0], [128, 256], [128, 256], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        h__l0_init_v0: pl.Tile[[64, 256], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 65536), pl.Mem.Acc] = pl.tile.create([64, 256], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for ko__idx_v1, (h__iter_v2,) in pl.range(0, 128, 128, init_values=(h__l0_init_v0,)):
            h__l0a_v3: pl.Tile[[64, 64], pl.FP16, pl.MemRef(mem_left_14, pl.const(0, pl.INT64), 8192), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(x__tile, 0, ko__idx_v1, [64, 64], target_memory=pl.Mem.Left)
            h__l0b_v4: pl.Tile[[64, 256], pl.FP16, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 32768), pl.Mem.Right] = pl.tile.extract(w1__tile, ko__idx_v1, 0, [64, 256], target_memory=pl.Mem.Right)
            h__l0a_v3_1: pl.Tile[[64, 64], pl.FP16, pl.MemRef(mem_left_16, pl.const(16384, pl.INT64), 8192), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(x__tile, 0, ko__idx_v1 + 64, [64, 64], target_memory=pl.Mem.Left)
            h__l0b_v4_1: pl.Tile[[64, 256], pl.FP16, pl.MemRef(mem_right_11, pl.const(32768, pl.INT64), 32768), pl.Mem.Right] = pl.tile.extract(w1__tile, ko__idx_v1 + 64, 0, [64, 256], target_memory=pl.Mem.Right)
            h__acc_v5: pl.Tile[[64, 256], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 65536), pl.Mem.Acc] = pl.tile.matmul_acc(h__iter_v2, h__l0a_v3, h__l0b_v4, ko__idx_v1 == 0)
            h__acc_v5_1: pl.Tile[[64, 256], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 65536), pl.Mem.Acc] = pl.tile.matmul_acc(h__acc_v5, h__l0a_v3_1, h__l0b_v4_1, ko__idx_v1 + 64 == 0)
            h__rv_v6: pl.Tile[[64, 256], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 65536), pl.Mem.Acc] = pl.yield_(h__acc_v5_1)
        pl.tile.tpush_to_aiv(h__rv_v6, split=1, slot_num=2)
        w2__tile: pl.Tile[[256, 128], pl.FP16, pl.MemRef(mem_mat_6, pl.const(81920, pl.INT64), 65536), pl.Mem.Mat] = pl.tile.load(w2, [0, 0], [256, 128], [256, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        t__l0_init_v7: pl.Tile[[64, 128], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 32768), pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        g__mat: pl.Tile[[64, 256], pl.FP16, pl.MemRef(mem_mat_4, pl.const(0, pl.INT64), 32768), pl.Mem.Mat] = pl.tile.tpop_from_aiv([64, 256], split=1, slot_num=2, dtype=pl.FP16)
        for ko__idx_v8, (t__iter_v9,) in pl.range(0, 256, 256, init_values=(t__l0_init_v7,)):
            t__l0a_v10: pl.Tile[[64, 128], pl.FP16, pl.MemRef(mem_left_14, pl.const(0, pl.INT64), 16384), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(g__mat, 0, ko__idx_v8, [64, 128], target_memory=pl.Mem.Left)
            t__l0b_v11: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 32768), pl.Mem.Right] = pl.tile.extract(w2__tile, ko__idx_v8, 0, [128, 128], target_memory=pl.Mem.Right)
            t__l0a_v10_1: pl.Tile[[64, 128], pl.FP16, pl.MemRef(mem_left_16, pl.const(16384, pl.INT64), 16384), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(g__mat, 0, ko__idx_v8 + 128, [64, 128], target_memory=pl.Mem.Left)
            t__l0b_v11_1: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_right_11, pl.const(32768, pl.INT64), 32768), pl.Mem.Right] = pl.tile.extract(w2__tile, ko__idx_v8 + 128, 0, [128, 128], target_memory=pl.Mem.Right)
            t__acc_v12: pl.Tile[[64, 128], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 32768), pl.Mem.Acc] = pl.tile.matmul_acc(t__iter_v9, t__l0a_v10, t__l0b_v11, ko__idx_v8 == 0)
            t__acc_v12_1: pl.Tile[[64, 128], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 32768), pl.Mem.Acc] = pl.tile.matmul_acc(t__acc_v12, t__l0a_v10_1, t__l0b_v11_1, ko__idx_v8 + 128 == 0)
            t__rv_v13: pl.Tile[[64, 128], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 32768), pl.Mem.Acc] = pl.yield_(t__acc_v12_1)
        pl.tile.tfree_to_aiv(g__mat, split=1, slot_num=2)
        out__store: pl.Tensor[[64, 128], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 32768)] = pl.tile.store(t__rv_v13, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def mlp_aiv0(self, x: pl.Tensor[[64, 128], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)], w1: pl.Tensor[[128, 256], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 65536)], w2: pl.Tensor[[256, 128], pl.FP16, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 65536)], out: pl.Out[pl.Tensor[[64, 128], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 32768)]]) -> pl.Tensor[[64, 128], pl.FP32]:
        pl.func_attr({"lane": 0})
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 65536, ring_slots=2)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32768)
        mem_vec_8: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32768)
        h__vec: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.tpop_from_aic([32, 256], split=1, slot_num=2, dtype=pl.FP32)
        t__tmp_v0: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(65536, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.muls(h__vec, -1.702)
        t__tmp_v1: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(65536, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.exp(t__tmp_v0)
        t__tmp_v2: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(65536, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.adds(t__tmp_v1, 1.0)
        sig: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_8, pl.const(98304, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.recip(t__tmp_v2)
        t__tmp_v3: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(65536, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.mul(h__vec, sig)
        pl.tile.tfree_to_aic(h__vec, split=1, slot_num=2)
        g: pl.Tile[[32, 256], pl.FP16, pl.MemRef(mem_vec_8, pl.const(98304, pl.INT64), 16384), pl.Mem.Vec] = pl.tile.cast(t__tmp_v3, pl.FP16)
        pl.tile.tpush_to_aic(g, split=1, slot_num=2)
        return out

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def mlp_aiv1(self, x: pl.Tensor[[64, 128], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 16384)], w1: pl.Tensor[[128, 256], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 65536)], w2: pl.Tensor[[256, 128], pl.FP16, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 65536)], out: pl.Out[pl.Tensor[[64, 128], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 32768)]]) -> pl.Tensor[[64, 128], pl.FP32]:
        pl.func_attr({"lane": 1})
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 65536, ring_slots=2)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32768)
        mem_vec_8: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 32768)
        h__vec: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.tpop_from_aic([32, 256], split=1, slot_num=2, dtype=pl.FP32)
        t__tmp_v0: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(65536, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.muls(h__vec, -1.702)
        t__tmp_v1: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(65536, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.exp(t__tmp_v0)
        t__tmp_v2: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(65536, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.adds(t__tmp_v1, 1.0)
        sig: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_8, pl.const(98304, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.recip(t__tmp_v2)
        t__tmp_v3: pl.Tile[[32, 256], pl.FP32, pl.MemRef(mem_vec_5, pl.const(65536, pl.INT64), 32768), pl.Mem.Vec] = pl.tile.mul(h__vec, sig)
        pl.tile.tfree_to_aic(h__vec, split=1, slot_num=2)
        g: pl.Tile[[32, 256], pl.FP16, pl.MemRef(mem_vec_8, pl.const(98304, pl.INT64), 16384), pl.Mem.Vec] = pl.tile.cast(t__tmp_v3, pl.FP16)
        pl.tile.tpush_to_aic(g, split=1, slot_num=2)
        return out

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def mlp(self, x: pl.Tensor[[64, 128], pl.FP16], w1: pl.Tensor[[128, 256], pl.FP16], w2: pl.Tensor[[256, 128], pl.FP16], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:
        pl.func_attr({"split": 1})
        mlp_aic_ret: pl.Tensor[[64, 128], pl.FP32] = self.mlp_aic(x, w1, w2, out)
        mlp_aiv0_ret: pl.Tensor[[64, 128], pl.FP32] = self.mlp_aiv0(x, w1, w2, out)
        mlp_aiv1_ret: pl.Tensor[[64, 128], pl.FP32] = self.mlp_aiv1(x, w1, w2, out)
        return mlp_aiv1_ret

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def fused_mlp(self, x: pl.Tensor[[64, 128], pl.FP16], w1: pl.Tensor[[128, 256], pl.FP16], w2: pl.Tensor[[256, 128], pl.FP16], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]) -> pl.Tensor[[64, 128], pl.FP32]:
        out__ssa_v0: pl.Tensor[[64, 128], pl.FP32] = self.mlp(x, w1, w2, out)
        return out__ssa_v0
