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
                for ko__idx_v17, (t0__iter_v18,) in pl.pipeline(0, 128, 64, init_values=(t0__l0_init_v16,), stage=2):
                    t0__l0a_v19: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, ko__idx_v17, [64, 64], target_memory=pl.Mem.Left)
                    t0__l0b_v20: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, ko__idx_v17, 0, [64, 128], target_memory=pl.Mem.Right)
                    t0__acc_v21: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__iter_v18, t0__l0a_v19, t0__l0b_v20, ko__idx_v17 == 0)
                    t0__rv_v22: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v21)
                acc3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__rv_v22)
            else:
                for ko__idx_v23, (t1__iter_v24,) in pl.pipeline(0, 128, 64, init_values=(acc,), stage=2):
                    t1__l0a_v25: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, ko__idx_v23, [64, 64], target_memory=pl.Mem.Left)
                    t1__l0b_v26: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, ko__idx_v23, 0, [64, 128], target_memory=pl.Mem.Right)
                    t1__acc_v27: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__iter_v24, t1__l0a_v25, t1__l0b_v26)
                    t1__rv_v28: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v27)
                acc3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__rv_v28)
            acc__ssa_v0: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3)
        c2__out_v1: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0, [0, 0], c)
        c2__acc_init_v2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_1, (acc_1,) in pl.pipeline(2, init_values=(c2__acc_init_v2,), stage=2):
            k0_1: pl.Scalar[pl.INDEX] = kb_1 * 128
            ta_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k0_1], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_1: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_1, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_1 == 0:
                t0__l0_init_v29: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                for ko__idx_v30, (t0__iter_v31,) in pl.pipeline(0, 128, 64, init_values=(t0__l0_init_v29,), stage=2):
                    t0__l0a_v32: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1, 0, ko__idx_v30, [64, 64], target_memory=pl.Mem.Left)
                    t0__l0b_v33: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1, ko__idx_v30, 0, [64, 128], target_memory=pl.Mem.Right)
                    t0__acc_v34: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__iter_v31, t0__l0a_v32, t0__l0b_v33, ko__idx_v30 == 0)
                    t0__rv_v35: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v34)
                acc3_1: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__rv_v35)
            else:
                for ko__idx_v36, (t1__iter_v37,) in pl.pipeline(0, 128, 64, init_values=(acc_1,), stage=2):
                    t1__l0a_v38: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_1, 0, ko__idx_v36, [64, 64], target_memory=pl.Mem.Left)
                    t1__l0b_v39: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_1, ko__idx_v36, 0, [64, 128], target_memory=pl.Mem.Right)
                    t1__acc_v40: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__iter_v37, t1__l0a_v38, t1__l0b_v39)
                    t1__rv_v41: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v40)
                acc3_1: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__rv_v41)
            acc__ssa_v0_1: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_1)
        c2__out_v3: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_1, [0, 128], c2__out_v1)
        c2__acc_init_v4: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_2, (acc_2,) in pl.pipeline(2, init_values=(c2__acc_init_v4,), stage=2):
            k0_2: pl.Scalar[pl.INDEX] = kb_2 * 128
            ta_2: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [64, k0_2], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_2: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_2, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_2 == 0:
                t0__l0_init_v42: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                for ko__idx_v43, (t0__iter_v44,) in pl.pipeline(0, 128, 64, init_values=(t0__l0_init_v42,), stage=2):
                    t0__l0a_v45: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_2, 0, ko__idx_v43, [64, 64], target_memory=pl.Mem.Left)
                    t0__l0b_v46: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_2, ko__idx_v43, 0, [64, 128], target_memory=pl.Mem.Right)
                    t0__acc_v47: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__iter_v44, t0__l0a_v45, t0__l0b_v46, ko__idx_v43 == 0)
                    t0__rv_v48: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v47)
                acc3_2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__rv_v48)
            else:
                for ko__idx_v49, (t1__iter_v50,) in pl.pipeline(0, 128, 64, init_values=(acc_2,), stage=2):
                    t1__l0a_v51: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_2, 0, ko__idx_v49, [64, 64], target_memory=pl.Mem.Left)
                    t1__l0b_v52: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_2, ko__idx_v49, 0, [64, 128], target_memory=pl.Mem.Right)
                    t1__acc_v53: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__iter_v50, t1__l0a_v51, t1__l0b_v52)
                    t1__rv_v54: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v53)
                acc3_2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__rv_v54)
            acc__ssa_v0_2: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_2)
        c2__out_v5: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_2, [64, 0], c2__out_v3)
        c2__acc_init_v6: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_3, (acc_3,) in pl.pipeline(2, init_values=(c2__acc_init_v6,), stage=2):
            k0_3: pl.Scalar[pl.INDEX] = kb_3 * 128
            ta_3: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [64, k0_3], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_3: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_3, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_3 == 0:
                t0__l0_init_v55: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                for ko__idx_v56, (t0__iter_v57,) in pl.pipeline(0, 128, 64, init_values=(t0__l0_init_v55,), stage=2):
                    t0__l0a_v58: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_3, 0, ko__idx_v56, [64, 64], target_memory=pl.Mem.Left)
                    t0__l0b_v59: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_3, ko__idx_v56, 0, [64, 128], target_memory=pl.Mem.Right)
                    t0__acc_v60: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__iter_v57, t0__l0a_v58, t0__l0b_v59, ko__idx_v56 == 0)
                    t0__rv_v61: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v60)
                acc3_3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__rv_v61)
            else:
                for ko__idx_v62, (t1__iter_v63,) in pl.pipeline(0, 128, 64, init_values=(acc_3,), stage=2):
                    t1__l0a_v64: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_3, 0, ko__idx_v62, [64, 64], target_memory=pl.Mem.Left)
                    t1__l0b_v65: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_3, ko__idx_v62, 0, [64, 128], target_memory=pl.Mem.Right)
                    t1__acc_v66: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__iter_v63, t1__l0a_v64, t1__l0b_v65)
                    t1__rv_v67: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v66)
                acc3_3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__rv_v67)
            acc__ssa_v0_3: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_3)
        c2__out_v7: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_3, [64, 128], c2__out_v5)
        c2__acc_init_v8: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_4, (acc_4,) in pl.pipeline(2, init_values=(c2__acc_init_v8,), stage=2):
            k0_4: pl.Scalar[pl.INDEX] = kb_4 * 128
            ta_4: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [128, k0_4], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_4: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_4, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_4 == 0:
                t0__l0_init_v68: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                for ko__idx_v69, (t0__iter_v70,) in pl.pipeline(0, 128, 64, init_values=(t0__l0_init_v68,), stage=2):
                    t0__l0a_v71: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_4, 0, ko__idx_v69, [64, 64], target_memory=pl.Mem.Left)
                    t0__l0b_v72: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_4, ko__idx_v69, 0, [64, 128], target_memory=pl.Mem.Right)
                    t0__acc_v73: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__iter_v70, t0__l0a_v71, t0__l0b_v72, ko__idx_v69 == 0)
                    t0__rv_v74: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v73)
                acc3_4: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__rv_v74)
            else:
                for ko__idx_v75, (t1__iter_v76,) in pl.pipeline(0, 128, 64, init_values=(acc_4,), stage=2):
                    t1__l0a_v77: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_4, 0, ko__idx_v75, [64, 64], target_memory=pl.Mem.Left)
                    t1__l0b_v78: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_4, ko__idx_v75, 0, [64, 128], target_memory=pl.Mem.Right)
                    t1__acc_v79: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__iter_v76, t1__l0a_v77, t1__l0b_v78)
                    t1__rv_v80: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v79)
                acc3_4: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__rv_v80)
            acc__ssa_v0_4: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_4)
        c2__out_v9: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_4, [128, 0], c2__out_v7)
        c2__acc_init_v10: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_5, (acc_5,) in pl.pipeline(2, init_values=(c2__acc_init_v10,), stage=2):
            k0_5: pl.Scalar[pl.INDEX] = kb_5 * 128
            ta_5: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [128, k0_5], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_5: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_5, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_5 == 0:
                t0__l0_init_v81: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                for ko__idx_v82, (t0__iter_v83,) in pl.pipeline(0, 128, 64, init_values=(t0__l0_init_v81,), stage=2):
                    t0__l0a_v84: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_5, 0, ko__idx_v82, [64, 64], target_memory=pl.Mem.Left)
                    t0__l0b_v85: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_5, ko__idx_v82, 0, [64, 128], target_memory=pl.Mem.Right)
                    t0__acc_v86: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__iter_v83, t0__l0a_v84, t0__l0b_v85, ko__idx_v82 == 0)
                    t0__rv_v87: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v86)
                acc3_5: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__rv_v87)
            else:
                for ko__idx_v88, (t1__iter_v89,) in pl.pipeline(0, 128, 64, init_values=(acc_5,), stage=2):
                    t1__l0a_v90: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_5, 0, ko__idx_v88, [64, 64], target_memory=pl.Mem.Left)
                    t1__l0b_v91: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_5, ko__idx_v88, 0, [64, 128], target_memory=pl.Mem.Right)
                    t1__acc_v92: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__iter_v89, t1__l0a_v90, t1__l0b_v91)
                    t1__rv_v93: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v92)
                acc3_5: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__rv_v93)
            acc__ssa_v0_5: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_5)
        c2__out_v11: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_5, [128, 128], c2__out_v9)
        c2__acc_init_v12: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_6, (acc_6,) in pl.pipeline(2, init_values=(c2__acc_init_v12,), stage=2):
            k0_6: pl.Scalar[pl.INDEX] = kb_6 * 128
            ta_6: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [192, k0_6], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_6: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_6, 0], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_6 == 0:
                t0__l0_init_v94: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                for ko__idx_v95, (t0__iter_v96,) in pl.pipeline(0, 128, 64, init_values=(t0__l0_init_v94,), stage=2):
                    t0__l0a_v97: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_6, 0, ko__idx_v95, [64, 64], target_memory=pl.Mem.Left)
                    t0__l0b_v98: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_6, ko__idx_v95, 0, [64, 128], target_memory=pl.Mem.Right)
                    t0__acc_v99: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__iter_v96, t0__l0a_v97, t0__l0b_v98, ko__idx_v95 == 0)
                    t0__rv_v100: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v99)
                acc3_6: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__rv_v100)
            else:
                for ko__idx_v101, (t1__iter_v102,) in pl.pipeline(0, 128, 64, init_values=(acc_6,), stage=2):
                    t1__l0a_v103: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_6, 0, ko__idx_v101, [64, 64], target_memory=pl.Mem.Left)
                    t1__l0b_v104: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_6, ko__idx_v101, 0, [64, 128], target_memory=pl.Mem.Right)
                    t1__acc_v105: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__iter_v102, t1__l0a_v103, t1__l0b_v104)
                    t1__rv_v106: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v105)
                acc3_6: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__rv_v106)
            acc__ssa_v0_6: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_6)
        c2__out_v13: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_6, [192, 0], c2__out_v11)
        c2__acc_init_v14: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
        for kb_7, (acc_7,) in pl.pipeline(2, init_values=(c2__acc_init_v14,), stage=2):
            k0_7: pl.Scalar[pl.INDEX] = kb_7 * 128
            ta_7: pl.Tile[[64, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [192, k0_7], [64, 128], [64, 128], target_memory=pl.Mem.Mat)
            tb_7: pl.Tile[[128, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k0_7, 128], [128, 128], [128, 128], target_memory=pl.Mem.Mat)
            if k0_7 == 0:
                t0__l0_init_v107: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([64, 128], target_memory=pl.Mem.Acc, dtype=pl.FP32)
                for ko__idx_v108, (t0__iter_v109,) in pl.pipeline(0, 128, 64, init_values=(t0__l0_init_v107,), stage=2):
                    t0__l0a_v110: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_7, 0, ko__idx_v108, [64, 64], target_memory=pl.Mem.Left)
                    t0__l0b_v111: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_7, ko__idx_v108, 0, [64, 128], target_memory=pl.Mem.Right)
                    t0__acc_v112: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t0__iter_v109, t0__l0a_v110, t0__l0b_v111, ko__idx_v108 == 0)
                    t0__rv_v113: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__acc_v112)
                acc3_7: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t0__rv_v113)
            else:
                for ko__idx_v114, (t1__iter_v115,) in pl.pipeline(0, 128, 64, init_values=(acc_7,), stage=2):
                    t1__l0a_v116: pl.Tile[[64, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta_7, 0, ko__idx_v114, [64, 64], target_memory=pl.Mem.Left)
                    t1__l0b_v117: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb_7, ko__idx_v114, 0, [64, 128], target_memory=pl.Mem.Right)
                    t1__acc_v118: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(t1__iter_v115, t1__l0a_v116, t1__l0b_v117)
                    t1__rv_v119: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__acc_v118)
                acc3_7: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(t1__rv_v119)
            acc__ssa_v0_7: pl.Tile[[64, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(acc3_7)
        c2__out_v15: pl.Tensor[[256, 256], pl.FP32] = pl.tile.store(acc__ssa_v0_7, [192, 128], c2__out_v13)
        return c2__out_v15

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[256, 256], pl.FP16], b: pl.Tensor[[256, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        c__ssa_v1: pl.Tensor[[256, 256], pl.FP32] = self.k(a, b, c)
        return c__ssa_v1
