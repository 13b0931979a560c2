# pypto.program: mixed
import pypto.language as pl


@pl.program
class mixed:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mixed_0_aic(self, a: pl.Tensor[[33, 64], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4224)], b: pl.Tensor[[64, 80], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 10240)], bias: pl.Tensor[[33, 80], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 10560)], out: pl.Out[pl.Tensor[[33, 80], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 10560)]]) -> pl.Tensor[[33, 80], pl.FP32]:
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 6144)
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 10240)
        mem_acc_6: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 15360)
        mem_left_7: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 6144)
        mem_right_8: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 10240)
        a__tile: pl.Tile[[48, 64], pl.FP16, pl.MemRef(mem_mat_4, pl.const(0, pl.INT64), 6144), pl.Mem.Mat, pl.TileView(valid_shape=[33, 64])] = pl.tile.load(a, [0, 0], [48, 64], [33, 64], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[64, 80], pl.FP16, pl.MemRef(mem_mat_5, pl.const(6144, pl.INT64), 10240), pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 80], [64, 80], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        acc__l0_init_v0: pl.Tile[[48, 80], pl.FP32, pl.MemRef(mem_acc_6, pl.const(0, pl.INT64), 15360), pl.Mem.Acc] = pl.tile.create([48, 80], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        acc__l0a_v1: pl.Tile[[48, 64], pl.FP16, pl.MemRef(mem_left_7, pl.const(0, pl.INT64), 6144), pl.Mem.Left, pl.TileView(valid_shape=[33, 64], blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, 0, 0, [48, 64], target_memory=pl.Mem.Left)
        acc__l0b_v2: pl.Tile[[64, 80], pl.FP16, pl.MemRef(mem_right_8, pl.const(0, pl.INT64), 10240), pl.Mem.Right] = pl.tile.extract(b__tile, 0, 0, [64, 80], target_memory=pl.Mem.Right)
        acc__acc_v3: pl.Tile[[48, 80], pl.FP32, pl.MemRef(mem_acc_6, pl.const(0, pl.INT64), 15360), pl.Mem.Acc] = pl.tile.matmul_acc(acc__l0_init_v0, acc__l0a_v1, acc__l0b_v2, True)
        acc__valid_v4: pl.Tile[[48, 80], pl.FP32, pl.MemRef(mem_acc_6, pl.const(0, pl.INT64), 15360), pl.Mem.Acc, pl.TileView(valid_shape=[33, 80])] = pl.tile.set_validshape(acc__acc_v3, 33, 80)
        pl.tile.tpush_to_aiv(acc__valid_v4, split=1, slot_num=2)
        return out

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def mixed_0_aiv0(self, a: pl.Tensor[[33, 64], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4224)], b: pl.Tensor[[64, 80], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 10240)], bias: pl.Tensor[[33, 80], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 10560)], out: pl.Out[pl.Tensor[[33, 80], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 10560)]]) -> pl.Tensor[[33, 80], pl.FP32]:
        pl.func_attr({"lane": 0})
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 10880, ring_slots=2)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 5440)
        bias__vec: pl.Tile[[17, 80], pl.FP32, pl.MemRef(mem_vec_5, pl.const(10880, pl.INT64), 5440), pl.Mem.Vec] = pl.tile.load(bias, [0, 0], [17, 80], [17, 80], target_memory=pl.Mem.Vec)
        acc__vec: pl.Tile[[17, 80], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 5440), pl.Mem.Vec] = pl.tile.tpop_from_aic([17, 80], split=1, slot_num=2, dtype=pl.FP32)
        t__tmp_v0: pl.Tile[[17, 80], pl.FP32, pl.MemRef(mem_vec_5, pl.const(10880, pl.INT64), 5440), pl.Mem.Vec] = pl.tile.add(acc__vec, bias__vec)
        pl.tile.tfree_to_aic(acc__vec, split=1, slot_num=2)
        t__tmp_v1: pl.Tile[[17, 80], pl.FP32, pl.MemRef(mem_vec_5, pl.const(10880, pl.INT64), 5440), pl.Mem.Vec] = pl.tile.relu(t__tmp_v0)
        out__store: pl.Tensor[[33, 80], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 10560)] = pl.tile.store(t__tmp_v1, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def mixed_0_aiv1(self, a: pl.Tensor[[33, 64], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4224)], b: pl.Tensor[[64, 80], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 10240)], bias: pl.Tensor[[33, 80], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 10560)], out: pl.Out[pl.Tensor[[33, 80], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 10560)]]) -> pl.Tensor[[33, 80], pl.FP32]:
        pl.func_attr({"lane": 1})
        mem_vec_4: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 10240, ring_slots=2)
        mem_vec_5: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 5120)
        bias__vec: pl.Tile[[16, 80], pl.FP32, pl.MemRef(mem_vec_5, pl.const(10240, pl.INT64), 5120), pl.Mem.Vec] = pl.tile.load(bias, [17, 0], [16, 80], [16, 80], target_memory=pl.Mem.Vec)
        acc__vec: pl.Tile[[16, 80], pl.FP32, pl.MemRef(mem_vec_4, pl.const(0, pl.INT64), 5120), pl.Mem.Vec] = pl.tile.tpop_from_aic([16, 80], split=1, slot_num=2, dtype=pl.FP32)
        t__tmp_v0: pl.Tile[[16, 80], pl.FP32, pl.MemRef(mem_vec_5, pl.const(10240, pl.INT64), 5120), pl.Mem.Vec] = pl.tile.add(acc__vec, bias__vec)
        pl.tile.tfree_to_aic(acc__vec, split=1, slot_num=2)
        t__tmp_v1: pl.Tile[[16, 80], pl.FP32, pl.MemRef(mem_vec_5, pl.const(10240, pl.INT64), 5120), pl.Mem.Vec] = pl.tile.relu(t__tmp_v0)
        out__store: pl.Tensor[[33, 80], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 10560)] = pl.tile.store(t__tmp_v1, [17, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)
    def mixed_0(self, a: pl.Tensor[[33, 64], pl.FP16], b: pl.Tensor[[64, 80], pl.FP16], bias: pl.Tensor[[33, 80], pl.FP32], out: pl.Out[pl.Tensor[[33, 80], pl.FP32]]) -> pl.Tensor[[33, 80], pl.FP32]:
        pl.func_attr({"split": 1})
        mixed_0_aic_ret: pl.Tensor[[33, 80], pl.FP32] = self.mixed_0_aic(a, b, bias, out)
        mixed_0_aiv0_ret: pl.Tensor[[33, 80], pl.FP32] = self.mixed_0_aiv0(a, b, bias, out)
        mixed_0_aiv1_ret: pl.Tensor[[33, 80], pl.FP32] = self.mixed_0_aiv1(a, b, bias, out)
        return mixed_0_aiv1_ret

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mixed(self, a: pl.Tensor[[33, 64], pl.FP16], b: pl.Tensor[[64, 80], pl.FP16], bias: pl.Tensor[[33, 80], pl.FP32], out: pl.Out[pl.Tensor[[33, 80], pl.FP32]]) -> pl.Tensor[[33, 80], pl.FP32]:
        out__ssa_v0: pl.Tensor[[33, 80], pl.FP32] = self.mixed_0(a, b, bias, out)
        return out__ssa_v0
