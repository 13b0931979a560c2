# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[256, 256], pl.FP16], b: pl.Tensor[[256, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        c2__acc_init_v0: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb, (acc,) in pl.pipeline(2, init_values=(c2__acc_init_v0,), stage=2):
            k0: pl.Scalar[pl.INDEX] = kb * 128
            ta: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k0], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0 == 0:
                t0__l0_init_v16: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                t0__l0a_v17: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v18: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__l0a_v19: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v20: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__acc_v21: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__l0_init_v16, t0__l0a_v17, t0__l0b_v18, True)
                t0__acc_v22: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__acc_v21, t0__l0a_v19, t0__l0b_v20)
                acc3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v22)
            else:
                t1__l0a_v23: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v24: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__l0a_v25: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v26: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__acc_v27: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc, t1__l0a_v23, t1__l0b_v24)
                t1__acc_v28: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__acc_v27, t1__l0a_v25, t1__l0b_v26)
                acc3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v28)
            acc__ssa_v0: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3)
        c2__out_v1: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0, [0, 0], c)
        c2__acc_init_v2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_1, (acc_1,) in pl.pipeline(2, init_values=(c2__acc_init_v2,), stage=2):
            k0_1: pl.Scalar[pl.INDEX] = kb_1 * 128
            ta_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k0_1], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_1: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_1, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_1 == 0:
                t0__l0_init_v29: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                t0__l0a_v30: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v31: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__l0a_v32: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v33: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__acc_v34: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__l0_init_v29, t0__l0a_v30, t0__l0b_v31, True)
                t0__acc_v35: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__acc_v34, t0__l0a_v32, t0__l0b_v33)
                acc3_1: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v35)
            else:
                t1__l0a_v36: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v37: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__l0a_v38: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v39: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__acc_v40: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_1, t1__l0a_v36, t1__l0b_v37)
                t1__acc_v41: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__acc_v40, t1__l0a_v38, t1__l0b_v39)
                acc3_1: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v41)
            acc__ssa_v0_1: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_1)
        c2__out_v3: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_1, [0, 128], c2__out_v1)
        c2__acc_init_v4: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_2, (acc_2,) in pl.pipeline(2, init_values=(c2__acc_init_v4,), stage=2):
            k0_2: pl.Scalar[pl.INDEX] = kb_2 * 128
            ta_2: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [64, k0_2], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_2: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_2, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_2 == 0:
                t0__l0_init_v42: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                t0__l0a_v43: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_2, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v44: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_2, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__l0a_v45: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_2, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v46: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_2, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__acc_v47: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__l0_init_v42, t0__l0a_v43, t0__l0b_v44, True)
                t0__acc_v48: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__acc_v47, t0__l0a_v45, t0__l0b_v46)
                acc3_2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v48)
            else:
                t1__l0a_v49: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_2, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v50: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_2, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__l0a_v51: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_2, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v52: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_2, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__acc_v53: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_2, t1__l0a_v49, t1__l0b_v50)
                t1__acc_v54: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__acc_v53, t1__l0a_v51, t1__l0b_v52)
                acc3_2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v54)
            acc__ssa_v0_2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_2)
        c2__out_v5: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_2, [64, 0], c2__out_v3)
        c2__acc_init_v6: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_3, (acc_3,) in pl.pipeline(2, init_values=(c2__acc_init_v6,), stage=2):
            k0_3: pl.Scalar[pl.INDEX] = kb_3 * 128
            ta_3: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [64, k0_3], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_3, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_3 == 0:
                t0__l0_init_v55: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                t0__l0a_v56: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_3, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v57: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_3, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__l0a_v58: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_3, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v59: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_3, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__acc_v60: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__l0_init_v55, t0__l0a_v56, t0__l0b_v57, True)
                t0__acc_v61: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__acc_v60, t0__l0a_v58, t0__l0b_v59)
                acc3_3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v61)
            else:
                t1__l0a_v62: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_3, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v63: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_3, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__l0a_v64: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_3, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v65: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_3, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__acc_v66: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_3, t1__l0a_v62, t1__l0b_v63)
                t1__acc_v67: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__acc_v66, t1__l0a_v64, t1__l0b_v65)
                acc3_3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v67)
            acc__ssa_v0_3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_3)
        c2__out_v7: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_3, [64, 128], c2__out_v5)
        c2__acc_init_v8: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_4, (acc_4,) in pl.pipeline(2, init_values=(c2__acc_init_v8,), stage=2):
            k0_4: pl.Scalar[pl.INDEX] = kb_4 * 128
            ta_4: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [128, k0_4], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_4: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_4, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_4 == 0:
                t0__l0_init_v68: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                t0__l0a_v69: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_4, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v70: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_4, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__l0a_v71: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_4, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v72: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_4, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__acc_v73: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__l0_init_v68, t0__l0a_v69, t0__l0b_v70, True)
                t0__acc_v74: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__acc_v73, t0__l0a_v71, t0__l0b_v72)
                acc3_4: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v74)
            else:
                t1__l0a_v75: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_4, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v76: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_4, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__l0a_v77: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_4, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v78: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_4, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__acc_v79: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_4, t1__l0a_v75, t1__l0b_v76)
                t1__acc_v80: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__acc_v79, t1__l0a_v77, t1__l0b_v78)
                acc3_4: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v80)
            acc__ssa_v0_4: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_4)
        c2__out_v9: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_4, [128, 0], c2__out_v7)
        c2__acc_init_v10: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_5, (acc_5,) in pl.pipeline(2, init_values=(c2__acc_init_v10,), stage=2):
            k0_5: pl.Scalar[pl.INDEX] = kb_5 * 128
            ta_5: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [128, k0_5], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_5: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_5, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_5 == 0:
                t0__l0_init_v81: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                t0__l0a_v82: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_5, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v83: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_5, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__l0a_v84: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_5, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v85: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_5, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__acc_v86: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__l0_init_v81, t0__l0a_v82, t0__l0b_v83, True)
                t0__acc_v87: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__acc_v86, t0__l0a_v84, t0__l0b_v85)
                acc3_5: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v87)
            else:
                t1__l0a_v88: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_5, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v89: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_5, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__l0a_v90: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_5, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v91: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_5, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__acc_v92: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_5, t1__l0a_v88, t1__l0b_v89)
                t1__acc_v93: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__acc_v92, t1__l0a_v90, t1__l0b_v91)
                acc3_5: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v93)
            acc__ssa_v0_5: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_5)
        c2__out_v11: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_5, [128, 128], c2__out_v9)
        c2__acc_init_v12: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_6, (acc_6,) in pl.pipeline(2, init_values=(c2__acc_init_v12,), stage=2):
            k0_6: pl.Scalar[pl.INDEX] = kb_6 * 128
            ta_6: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [192, k0_6], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_6: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_6, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_6 == 0:
                t0__l0_init_v94: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                t0__l0a_v95: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_6, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v96: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_6, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__l0a_v97: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_6, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v98: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_6, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__acc_v99: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__l0_init_v94, t0__l0a_v95, t0__l0b_v96, True)
                t0__acc_v100: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__acc_v99, t0__l0a_v97, t0__l0b_v98)
                acc3_6: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v100)
            else:
                t1__l0a_v101: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_6, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v102: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_6, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__l0a_v103: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_6, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v104: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_6, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__acc_v105: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_6, t1__l0a_v101, t1__l0b_v102)
                t1__acc_v106: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__acc_v105, t1__l0a_v103, t1__l0b_v104)
                acc3_6: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v106)
            acc__ssa_v0_6: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_6)
        c2__out_v13: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_6, [192, 0], c2__out_v11)
        c2__acc_init_v14: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_7, (acc_7,) in pl.pipeline(2, init_values=(c2__acc_init_v14,), stage=2):
            k0_7: pl.Scalar[pl.INDEX] = kb_7 * 128
            ta_7: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [192, k0_7], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_7: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_7, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_7 == 0:
                t0__l0_init_v107: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                t0__l0a_v108: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_7, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v109: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_7, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__l0a_v110: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_7, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t0__l0b_v111: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_7, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t0__acc_v112: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__l0_init_v107, t0__l0a_v108, t0__l0b_v109, True)
                t0__acc_v113: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__acc_v112, t0__l0a_v110, t0__l0b_v111)
                acc3_7: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v113)
            else:
                t1__l0a_v114: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_7, 0, 0, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v115: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_7, 0, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__l0a_v116: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_7, 0, 64, [64, 64], target_memory=pl.Mem.Left, attrs={"pipeline_l0_step": 1})
                t1__l0b_v117: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_7, 64, 0, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_l0_step": 1})
                t1__acc_v118: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(acc_7, t1__l0a_v114, t1__l0b_v115)
                t1__acc_v119: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__acc_v118, t1__l0a_v116, t1__l0b_v117)
                acc3_7: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v119)
            acc__ssa_v0_7: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_7)
        c2__out_v15: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_7, [192, 128], c2__out_v13)
        return c2__out_v15

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[256, 256], pl.FP16], b: pl.Tensor[[256, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        c__ssa_v1: pl.Tensor[[256, 256], pl.FP32] = self.k(a, b, c)
        return c__ssa_v1
