# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[384, 128], pl.FP16, pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 98304)], b: pl.Tensor[[128, 336], pl.FP16, pl.MemRef("mem_ddr_1", pl.const(0, pl.INT64), 86016)], e: pl.Tensor[[336, 32], pl.FP16, pl.MemRef("mem_ddr_2", pl.const(0, pl.INT64), 21504)], d: pl.Out[pl.Tensor[[384, 32], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 49152)]]) -> pl.Tensor[[384, 32], pl.FP32]:
        mem_mat_4: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 98304)
        mem_mat_5: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 86016)
        mem_mat_6: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 21504)
        mem_mat_7: pl.Ptr = pl.tile.alloc(pl.Mem.Mat, 258048)
        mem_left_8: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 49152)
        mem_right_9: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 32768)
        mem_right_10: pl.Ptr = pl.tile.alloc(pl.Mem.Right, 32768)
        mem_acc_11: pl.Ptr = pl.tile.alloc(pl.Mem.Acc, 98304)
        mem_left_16: pl.Ptr = pl.tile.alloc(pl.Mem.Left, 12288)
        ta: pl.Tile[[384, 128], pl.FP16, pl.MemRef(mem_mat_4, pl.const(0, pl.INT64), 98304), pl.Mem.Mat] = pl.tile.load(a, [0, 0], [384, 128], [384, 128], target_memory=pl.Mem.Mat)
        tb: pl.Tile[[128, 336], pl.FP16, pl.MemRef(mem_mat_5, pl.const(0, pl.INT64), 86016), pl.Mem.Mat] = pl.tile.load(b, [0, 0], [128, 336], [128, 336], target_memory=pl.Mem.Mat)
        te: pl.Tile[[336, 32], pl.FP16, pl.MemRef(mem_mat_6, pl.const(0, pl.INT64), 21504), pl.Mem.Mat] = pl.tile.load(e, [0, 0], [336, 32], [336, 32], target_memory=pl.Mem.Mat)
        c__mat_v0: pl.Tile[[384, 336], pl.FP16, pl.MemRef(mem_mat_7, pl.const(0, pl.INT64), 258048), pl.Mem.Mat] = pl.tile.create([384, 336], target_memory=pl.Mem.Mat, dtype=pl.FP16)
        for mi__idx_v1, (out__iter_v2,) in pl.range(0, 384, 192, init_values=(c__mat_v0,)):
            c__l0a_v3: pl.Tile[[192, 128], pl.FP16, pl.MemRef(mem_left_8, pl.const(0, pl.INT64), 49152), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, mi__idx_v1, 0, [192, 128], target_memory=pl.Mem.Left)
            for ni__idx_v4, (out__iter_v5,) in pl.range(0, 256, 256, init_values=(out__iter_v2,)):
                c__l0b_v6: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 32768), pl.Mem.Right] = pl.tile.extract(tb, 0, ni__idx_v4, [128, 128], target_memory=pl.Mem.Right)
                c__l0b_v6_1: pl.Tile[[128, 128], pl.FP16, pl.MemRef(mem_right_10, pl.const(0, pl.INT64), 32768), pl.Mem.Right] = pl.tile.extract(tb, 0, ni__idx_v4 + 128, [128, 128], target_memory=pl.Mem.Right)
                c__acc_v7: pl.Tile[[192, 128], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 98304), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v3, c__l0b_v6)
                c__mat_v8: pl.Tile[[384, 336], pl.FP16, pl.MemRef(mem_mat_7, pl.const(0, pl.INT64), 258048), pl.Mem.Mat] = pl.tile.assemble(out__iter_v5, c__acc_v7, [mi__idx_v1, ni__idx_v4])
                c__acc_v7_1: pl.Tile[[192, 128], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 98304), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v3, c__l0b_v6_1)
                c__mat_v8_1: pl.Tile[[384, 336], pl.FP16, pl.MemRef(mem_mat_7, pl.const(0, pl.INT64), 258048), pl.Mem.Mat] = pl.tile.assemble(c__mat_v8, c__acc_v7_1, [mi__idx_v1, ni__idx_v4 + 128])
                out__rv_v9: pl.Tile[[384, 336], pl.FP16, pl.MemRef(mem_mat_7, pl.const(0, pl.INT64), 258048), pl.Mem.Mat] = pl.yield_(c__mat_v8_1)
            c__l0b_v10: pl.Tile[[128, 80], pl.FP16, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 20480), pl.Mem.Right] = pl.tile.extract(tb, 0, 256, [128, 80], target_memory=pl.Mem.Right)
            c__acc_v11: pl.Tile[[192, 80], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 61440), pl.Mem.Acc] = pl.tile.matmul(c__l0a_v3, c__l0b_v10)
            c__mat_v12: pl.Tile[[384, 336], pl.FP16, pl.MemRef(mem_mat_7, pl.const(0, pl.INT64), 258048), pl.Mem.Mat] = pl.tile.assemble(out__rv_v9, c__acc_v11, [mi__idx_v1, 256])
            out__rv_v13: pl.Tile[[384, 336], pl.FP16, pl.MemRef(mem_mat_7, pl.const(0, pl.INT64), 258048), pl.Mem.Mat] = pl.yield_(c__mat_v12)
        dd__l0_init_v14: pl.Tile[[384, 32], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 49152), pl.Mem.Acc] = pl.tile.create([384, 32], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for ko__idx_v15, (dd__iter_v16,) in pl.range(0, 320, 32, init_values=(dd__l0_init_v14,)):
            dd__l0a_v17: pl.Tile[[384, 16], pl.FP16, pl.MemRef(mem_left_16, pl.const(0, pl.INT64), 12288), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(out__rv_v13, 0, ko__idx_v15, [384, 16], target_memory=pl.Mem.Left)
            dd__l0b_v18: pl.Tile[[16, 32], pl.FP16, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 1024), pl.Mem.Right] = pl.tile.extract(te, ko__idx_v15, 0, [16, 32], target_memory=pl.Mem.Right)
            dd__l0a_v17_1: pl.Tile[[384, 16], pl.FP16, pl.MemRef(mem_left_8, pl.const(0, pl.INT64), 12288), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(out__rv_v13, 0, ko__idx_v15 + 16, [384, 16], target_memory=pl.Mem.Left)
            dd__l0b_v18_1: pl.Tile[[16, 32], pl.FP16, pl.MemRef(mem_right_10, pl.const(0, pl.INT64), 1024), pl.Mem.Right] = pl.tile.extract(te, ko__idx_v15 + 16, 0, [16, 32], target_memory=pl.Mem.Right)
            dd__acc_v19: pl.Tile[[384, 32], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 49152), pl.Mem.Acc] = pl.tile.matmul_acc(dd__iter_v16, dd__l0a_v17, dd__l0b_v18, ko__idx_v15 == 0)
            dd__acc_v19_1: pl.Tile[[384, 32], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 49152), pl.Mem.Acc] = pl.tile.matmul_acc(dd__acc_v19, dd__l0a_v17_1, dd__l0b_v18_1, ko__idx_v15 + 16 == 0)
            dd__rv_v20: pl.Tile[[384, 32], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 49152), pl.Mem.Acc] = pl.yield_(dd__acc_v19_1)
        dd__l0a_v17_2: pl.Tile[[384, 16], pl.FP16, pl.MemRef(mem_left_16, pl.const(0, pl.INT64), 12288), pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(out__rv_v13, 0, 320, [384, 16], target_memory=pl.Mem.Left)
        dd__l0b_v18_2: pl.Tile[[16, 32], pl.FP16, pl.MemRef(mem_right_9, pl.const(0, pl.INT64), 1024), pl.Mem.Right] = pl.tile.extract(te, 320, 0, [16, 32], target_memory=pl.Mem.Right)
        dd__acc_v19_2: pl.Tile[[384, 32], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 49152), pl.Mem.Acc] = pl.tile.matmul_acc(dd__rv_v20, dd__l0a_v17_2, dd__l0b_v18_2, 320 == 0)
        dd__rv_v20_1: pl.Tile[[384, 32], pl.FP32, pl.MemRef(mem_acc_11, pl.const(0, pl.INT64), 49152), pl.Mem.Acc] = dd__acc_v19_2
        d2: pl.Tensor[[384, 32], pl.FP32, pl.MemRef("mem_ddr_3", pl.const(0, pl.INT64), 49152)] = pl.tile.store(dd__rv_v20_1, [0, 0], d)
        return d2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[384, 128], pl.FP16], b: pl.Tensor[[128, 336], pl.FP16], e: pl.Tensor[[336, 32], pl.FP16], d: pl.Out[pl.Tensor[[384, 32], pl.FP32]]) -> pl.Tensor[[384, 32], pl.FP32]:
        d__ssa_v0: pl.Tensor[[384, 32], pl.FP32] = self.k(a, b, e, d)
        return d__ssa_v0
