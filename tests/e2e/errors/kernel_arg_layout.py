# An ND tensor passed to a kernel parameter declared NZ: the kernel would read the bytes in fractal order.
# expect: argument 0 of 'mm_16x16x16_incore_0' is pl.Tensor[[16, 16], pl.FP16], but parameter 'a' is pl.Tensor[[16, 16], pl.FP16, pl.NZ
# pypto.program: mm_16x16x16
import pypto.language as pl


@pl.program
class mm_16x16x16:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def mm_16x16x16_incore_0(self, a: pl.Tensor[[16, 16], pl.FP16, pl.NZ, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 512)], b: pl.Tensor[[16, 16], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 512)], c: pl.Out[pl.Tensor[[16, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 1024)]]) -> pl.Tensor[[16, 16], pl.FP32]:
        mem_mat_3: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 512)
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 512)
        mem_left_5: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 512)
        mem_right_6: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 512)
        mem_acc_7: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 1024)
        a__tile: pl.Tile[[16, 16], pl.FP16, pl.MemRef(mem_mat_3, pl.const(0, pl.INT64), 512), pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[16, 16], pl.FP16, pl.MemRef(mem_mat_4, pl.const(512, pl.INT64), 512), pl.Mem.Mat] = pl.tile.load(b, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        a__tile_Left: pl.Tile[[16, 16], pl.FP16, pl.MemRef(mem_left_5, pl.const(0, pl.INT64), 512), pl.Mem.Left] = pl.tile.move(a__tile, target_memory=pl.Mem.Left)
        b__tile_Right: pl.Tile[[16, 16], pl.FP16, pl.MemRef(mem_right_6, pl.const(0, pl.INT64), 512), pl.Mem.Right] = pl.tile.move(b__tile, target_memory=pl.Mem.Right)
        t__tmp_v0: pl.Tile[[16, 16], pl.FP32, pl.MemRef(mem_acc_7, pl.const(0, pl.INT64), 1024), pl.Mem.Acc] = pl.tile.matmul(a__tile_Left, b__tile_Right)
        c__store: pl.Tensor[[16, 16], pl.FP32, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 1024)] = pl.tile.store(t__tmp_v0, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mm_16x16x16(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = self.mm_16x16x16_incore_0(a, b, c)
        return c__ssa_v0
