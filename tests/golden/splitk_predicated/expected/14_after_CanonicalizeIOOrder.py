# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[256, 256], pl.FP16], b: pl.Tensor[[256, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        c2__acc_init_v0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([128, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb, (acc,) in pl.range(0, 2, 2, init_values=(c2__acc_init_v0,)):
            k0: pl.Scalar[pl.INDEX] = kb * 128
            k0_1: pl.Scalar[pl.INDEX] = (kb + 1) * 128
            ta: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "0:0"})
            tb: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "0:0"})
            ta_1: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k0_1], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "0:1"})
            tb_1: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_1, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "0:1"})
            acc2__l0a_v8: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v9: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__l0a_v10: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 64, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v11: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__acc_v12: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc, acc2__l0a_v8, acc2__l0b_v9, kb == 0)
            acc2__acc_v13: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v12, acc2__l0a_v10, acc2__l0b_v11)
            acc2__l0a_v8_1: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1, 0, 0, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v9_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__l0a_v10_1: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1, 0, 64, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v11_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__acc_v12_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v13, acc2__l0a_v8_1, acc2__l0b_v9_1, kb + 1 == 0)
            acc2__acc_v13_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v12_1, acc2__l0a_v10_1, acc2__l0b_v11_1)
            acc__ssa_v0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc2__acc_v13_1)
        c2__out_v1: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0, [0, 0], c)
        c2__acc_init_v2: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([128, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_1, (acc_1,) in pl.range(0, 2, 2, init_values=(c2__acc_init_v2,)):
            k0_2: pl.Scalar[pl.INDEX] = kb_1 * 128
            k0_1_1: pl.Scalar[pl.INDEX] = (kb_1 + 1) * 128
            ta_2: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k0_2], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "1:0"})
            tb_2: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_2, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "1:0"})
            ta_1_1: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k0_1_1], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "1:1"})
            tb_1_1: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_1_1, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "1:1"})
            acc2__l0a_v14: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_2, 0, 0, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v15: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_2, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__l0a_v16: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_2, 0, 64, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v17: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_2, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__acc_v18: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_1, acc2__l0a_v14, acc2__l0b_v15, kb_1 == 0)
            acc2__acc_v19: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v18, acc2__l0a_v16, acc2__l0b_v17)
            acc2__l0a_v14_1: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1_1, 0, 0, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v15_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1_1, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__l0a_v16_1: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1_1, 0, 64, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v17_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1_1, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__acc_v18_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v19, acc2__l0a_v14_1, acc2__l0b_v15_1, kb_1 + 1 == 0)
            acc2__acc_v19_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v18_1, acc2__l0a_v16_1, acc2__l0b_v17_1)
            acc__ssa_v0_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc2__acc_v19_1)
        c2__out_v3: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_1, [0, 128], c2__out_v1)
        c2__acc_init_v4: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([128, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_2, (acc_2,) in pl.range(0, 2, 2, init_values=(c2__acc_init_v4,)):
            k0_3: pl.Scalar[pl.INDEX] = kb_2 * 128
            k0_1_2: pl.Scalar[pl.INDEX] = (kb_2 + 1) * 128
            ta_3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [128, k0_3], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "2:0"})
            tb_3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_3, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "2:0"})
            ta_1_2: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [128, k0_1_2], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "2:1"})
            tb_1_2: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_1_2, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "2:1"})
            acc2__l0a_v20: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_3, 0, 0, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v21: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_3, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__l0a_v22: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_3, 0, 64, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v23: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_3, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__acc_v24: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_2, acc2__l0a_v20, acc2__l0b_v21, kb_2 == 0)
            acc2__acc_v25: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v24, acc2__l0a_v22, acc2__l0b_v23)
            acc2__l0a_v20_1: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1_2, 0, 0, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v21_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1_2, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__l0a_v22_1: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1_2, 0, 64, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v23_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1_2, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__acc_v24_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v25, acc2__l0a_v20_1, acc2__l0b_v21_1, kb_2 + 1 == 0)
            acc2__acc_v25_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v24_1, acc2__l0a_v22_1, acc2__l0b_v23_1)
            acc__ssa_v0_2: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc2__acc_v25_1)
        c2__out_v5: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_2, [128, 0], c2__out_v3)
        c2__acc_init_v6: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([128, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_3, (acc_3,) in pl.range(0, 2, 2, init_values=(c2__acc_init_v6,)):
            k0_4: pl.Scalar[pl.INDEX] = kb_3 * 128
            k0_1_3: pl.Scalar[pl.INDEX] = (kb_3 + 1) * 128
            ta_4: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [128, k0_4], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "3:0"})
            tb_4: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_4, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "3:0"})
            ta_1_3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [128, k0_1_3], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "3:1"})
            tb_1_3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_1_3, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat, attrs={"pipeline_membership": "3:1"})
            acc2__l0a_v26: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_4, 0, 0, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v27: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_4, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__l0a_v28: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_4, 0, 64, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v29: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_4, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__acc_v30: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_3, acc2__l0a_v26, acc2__l0b_v27, kb_3 == 0)
            acc2__acc_v31: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v30, acc2__l0a_v28, acc2__l0b_v29)
            acc2__l0a_v26_1: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1_3, 0, 0, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v27_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1_3, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__l0a_v28_1: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1_3, 0, 64, [128, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
            acc2__l0b_v29_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1_3, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
            acc2__acc_v30_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v31, acc2__l0a_v26_1, acc2__l0b_v27_1, kb_3 + 1 == 0)
            acc2__acc_v31_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc2__acc_v30_1, acc2__l0a_v28_1, acc2__l0b_v29_1)
            acc__ssa_v0_3: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc2__acc_v31_1)
        c2__out_v7: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_3, [128, 128], c2__out_v5)
        return c2__out_v7

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[256, 256], pl.FP16], b: pl.Tensor[[256, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        c__ssa_v1: pl.Tensor[[256, 256], pl.FP32] = self.k(a, b, c)
        return c__ssa_v1
