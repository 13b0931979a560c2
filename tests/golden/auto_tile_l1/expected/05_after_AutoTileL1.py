# pypto.program: l1_golden
import pypto.language as pl


@pl.program
class l1_golden:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def l1_golden_incore_0(self, a: pl.Tensor[[200, 3000], pl.FP16], b: pl.Tensor[[3000, 136], pl.FP16], c: pl.Out[pl.Tensor[[200, 136], pl.FP32]]) -> pl.Tensor[[200, 136], pl.FP32]:
        for nb__l1_v1, (t__iter_v2,) in pl.range(2, init_values=(c,)):
            t__n0_v3: pl.Scalar[pl.INDEX] = nb__l1_v1 * 48
            t__l1a_v4: pl.Tensor[[112, 8], pl.FP16] = pl.tensor.slice(a, [112, 8], [0, 0])
            t__l1b_v5: pl.Tensor[[8, 48], pl.FP16] = pl.tensor.slice(b, [8, 48], [0, t__n0_v3])
            t__acc_v6: pl.Tensor[[112, 48], pl.FP32] = pl.tensor.matmul(t__l1a_v4, t__l1b_v5, out_dtype=pl.FP32)
            t__l1a_v7: pl.Tensor[[112, 432], pl.FP16] = pl.tensor.slice(a, [112, 432], [0, 8])
            t__l1b_v8: pl.Tensor[[432, 48], pl.FP16] = pl.tensor.slice(b, [432, 48], [8, t__n0_v3])
            t__acc_v9: pl.Tensor[[112, 48], pl.FP32] = pl.tensor.matmul_acc(t__acc_v6, t__l1a_v7, t__l1b_v8)
            for k__l1_v10, (t__iter_v11,) in pl.pipeline(5, init_values=(t__acc_v9,), stage=2):
                t__k0_v12: pl.Scalar[pl.INDEX] = 440 + k__l1_v10 * 512
                t__l1a_v13: pl.Tensor[[112, 512], pl.FP16] = pl.tensor.slice(a, [112, 512], [0, t__k0_v12])
                t__l1b_v14: pl.Tensor[[512, 48], pl.FP16] = pl.tensor.slice(b, [512, 48], [t__k0_v12, t__n0_v3])
                t__acc_v15: pl.Tensor[[112, 48], pl.FP32] = pl.tensor.matmul_acc(t__iter_v11, t__l1a_v13, t__l1b_v14)
                t__rv_v16: pl.Tensor[[112, 48], pl.FP32] = pl.yield_(t__acc_v15)
            t__l1c_v17: pl.Tensor[[200, 136], pl.FP32] = pl.tensor.assemble(t__iter_v2, t__rv_v16, [0, t__n0_v3])
            t__rv_v18: pl.Tensor[[200, 136], pl.FP32] = pl.yield_(t__l1c_v17)
        t__l1a_v19: pl.Tensor[[112, 8], pl.FP16] = pl.tensor.slice(a, [112, 8], [0, 0])
        t__l1b_v20: pl.Tensor[[8, 40], pl.FP16] = pl.tensor.slice(b, [8, 40], [0, 96])
        t__acc_v21: pl.Tensor[[112, 40], pl.FP32] = pl.tensor.matmul(t__l1a_v19, t__l1b_v20, out_dtype=pl.FP32)
        t__l1a_v22: pl.Tensor[[112, 432], pl.FP16] = pl.tensor.slice(a, [112, 432], [0, 8])
        t__l1b_v23: pl.Tensor[[432, 40], pl.FP16] = pl.tensor.slice(b, [432, 40], [8, 96])
        t__acc_v24: pl.Tensor[[112, 40], pl.FP32] = pl.tensor.matmul_acc(t__acc_v21, t__l1a_v22, t__l1b_v23)
        for k__l1_v25, (t__iter_v26,) in pl.pipeline(5, init_values=(t__acc_v24,), stage=2):
            t__k0_v27: pl.Scalar[pl.INDEX] = 440 + k__l1_v25 * 512
            t__l1a_v28: pl.Tensor[[112, 512], pl.FP16] = pl.tensor.slice(a, [112, 512], [0, t__k0_v27])
            t__l1b_v29: pl.Tensor[[512, 40], pl.FP16] = pl.tensor.slice(b, [512, 40], [t__k0_v27, 96])
            t__acc_v30: pl.Tensor[[112, 40], pl.FP32] = pl.tensor.matmul_acc(t__iter_v26, t__l1a_v28, t__l1b_v29)
            t__rv_v31: pl.Tensor[[112, 40], pl.FP32] = pl.yield_(t__acc_v30)
        t__l1c_v32: pl.Tensor[[200, 136], pl.FP32] = pl.tensor.assemble(t__rv_v18, t__rv_v31, [0, 96])
        for nb__l1_v33, (t__iter_v34,) in pl.range(2, init_values=(t__l1c_v32,)):
            t__n0_v35: pl.Scalar[pl.INDEX] = nb__l1_v33 * 48
            t__l1a_v36: pl.Tensor[[88, 8], pl.FP16] = pl.tensor.slice(a, [88, 8], [112, 0])
            t__l1b_v37: pl.Tensor[[8, 48], pl.FP16] = pl.tensor.slice(b, [8, 48], [0, t__n0_v35])
            t__acc_v38: pl.Tensor[[88, 48], pl.FP32] = pl.tensor.matmul(t__l1a_v36, t__l1b_v37, out_dtype=pl.FP32)
            t__l1a_v39: pl.Tensor[[88, 432], pl.FP16] = pl.tensor.slice(a, [88, 432], [112, 8])
            t__l1b_v40: pl.Tensor[[432, 48], pl.FP16] = pl.tensor.slice(b, [432, 48], [8, t__n0_v35])
            t__acc_v41: pl.Tensor[[88, 48], pl.FP32] = pl.tensor.matmul_acc(t__acc_v38, t__l1a_v39, t__l1b_v40)
            for k__l1_v42, (t__iter_v43,) in pl.pipeline(5, init_values=(t__acc_v41,), stage=2):
                t__k0_v44: pl.Scalar[pl.INDEX] = 440 + k__l1_v42 * 512
                t__l1a_v45: pl.Tensor[[88, 512], pl.FP16] = pl.tensor.slice(a, [88, 512], [112, t__k0_v44])
                t__l1b_v46: pl.Tensor[[512, 48], pl.FP16] = pl.tensor.slice(b, [512, 48], [t__k0_v44, t__n0_v35])
                t__acc_v47: pl.Tensor[[88, 48], pl.FP32] = pl.tensor.matmul_acc(t__iter_v43, t__l1a_v45, t__l1b_v46)
                t__rv_v48: pl.Tensor[[88, 48], pl.FP32] = pl.yield_(t__acc_v47)
            t__l1c_v49: pl.Tensor[[200, 136], pl.FP32] = pl.tensor.assemble(t__iter_v34, t__rv_v48, [112, t__n0_v35])
            t__rv_v50: pl.Tensor[[200, 136], pl.FP32] = pl.yield_(t__l1c_v49)
        t__l1a_v51: pl.Tensor[[88, 8], pl.FP16] = pl.tensor.slice(a, [88, 8], [112, 0])
        t__l1b_v52: pl.Tensor[[8, 40], pl.FP16] = pl.tensor.slice(b, [8, 40], [0, 96])
        t__acc_v53: pl.Tensor[[88, 40], pl.FP32] = pl.tensor.matmul(t__l1a_v51, t__l1b_v52, out_dtype=pl.FP32)
        t__l1a_v54: pl.Tensor[[88, 432], pl.FP16] = pl.tensor.slice(a, [88, 432], [112, 8])
        t__l1b_v55: pl.Tensor[[432, 40], pl.FP16] = pl.tensor.slice(b, [432, 40], [8, 96])
        t__acc_v56: pl.Tensor[[88, 40], pl.FP32] = pl.tensor.matmul_acc(t__acc_v53, t__l1a_v54, t__l1b_v55)
        for k__l1_v57, (t__iter_v58,) in pl.pipeline(5, init_values=(t__acc_v56,), stage=2):
            t__k0_v59: pl.Scalar[pl.INDEX] = 440 + k__l1_v57 * 512
            t__l1a_v60: pl.Tensor[[88, 512], pl.FP16] = pl.tensor.slice(a, [88, 512], [112, t__k0_v59])
            t__l1b_v61: pl.Tensor[[512, 40], pl.FP16] = pl.tensor.slice(b, [512, 40], [t__k0_v59, 96])
            t__acc_v62: pl.Tensor[[88, 40], pl.FP32] = pl.tensor.matmul_acc(t__iter_v58, t__l1a_v60, t__l1b_v61)
            t__rv_v63: pl.Tensor[[88, 40], pl.FP32] = pl.yield_(t__acc_v62)
        t__l1c_v64: pl.Tensor[[200, 136], pl.FP32] = pl.tensor.assemble(t__rv_v50, t__rv_v63, [112, 96])
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def l1_golden(self, a: pl.Tensor[[200, 3000], pl.FP16], b: pl.Tensor[[3000, 136], pl.FP16], c: pl.Out[pl.Tensor[[200, 136], pl.FP32]]) -> pl.Tensor[[200, 136], pl.FP32]:
        c__ssa_v0: pl.Tensor[[200, 136], pl.FP32] = self.l1_golden_incore_0(a, b, c)
        return c__ssa_v0
