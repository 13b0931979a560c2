# pypto.program: l1_golden
import pypto.language as pl


@pl.program
class l1_golden:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def l1_golden_incore_0(self, a: pl.Tensor[[200, 3000], pl.FP16], b: pl.Tensor[[3000, 136], pl.FP16], c: pl.Out[pl.Tensor[[200, 136], pl.FP32]]) -> pl.Tensor[[200, 136], pl.FP32]:
        t__l1a_v1: pl.Tensor[[112, 8], pl.FP16] = pl.tensor.slice(a, [112, 8], [0, 0])
        t__l1b_v2: pl.Tensor[[8, 136], pl.FP16] = pl.tensor.slice(b, [8, 136], [0, 0])
        t__acc_v3: pl.Tensor[[112, 136], pl.FP32] = pl.tensor.matmul(t__l1a_v1, t__l1b_v2, out_dtype=pl.FP32)
        t__l1a_v4: pl.Tensor[[112, 48], pl.FP16] = pl.tensor.slice(a, [112, 48], [0, 8])
        t__l1b_v5: pl.Tensor[[48, 136], pl.FP16] = pl.tensor.slice(b, [48, 136], [8, 0])
        t__acc_v6: pl.Tensor[[112, 136], pl.FP32] = pl.tensor.matmul_acc(t__acc_v3, t__l1a_v4, t__l1b_v5)
        for k__l1_v7, (t__iter_v8,) in pl.pipeline(23, init_values=(t__acc_v6,), stage=2):
            t__k0_v9: pl.Scalar[pl.INDEX] = 56 + k__l1_v7 * 128
            t__l1a_v10: pl.Tensor[[112, 128], pl.FP16] = pl.tensor.slice(a, [112, 128], [0, t__k0_v9])
            t__l1b_v11: pl.Tensor[[128, 136], pl.FP16] = pl.tensor.slice(b, [128, 136], [t__k0_v9, 0])
            t__acc_v12: pl.Tensor[[112, 136], pl.FP32] = pl.tensor.matmul_acc(t__iter_v8, t__l1a_v10, t__l1b_v11)
            t__rv_v13: pl.Tensor[[112, 136], pl.FP32] = pl.yield_(t__acc_v12)
        t__l1c_v14: pl.Tensor[[200, 136], pl.FP32] = pl.tensor.assemble(c, t__rv_v13, [0, 0])
        t__l1a_v15: pl.Tensor[[88, 8], pl.FP16] = pl.tensor.slice(a, [88, 8], [112, 0])
        t__l1b_v16: pl.Tensor[[8, 136], pl.FP16] = pl.tensor.slice(b, [8, 136], [0, 0])
        t__acc_v17: pl.Tensor[[88, 136], pl.FP32] = pl.tensor.matmul(t__l1a_v15, t__l1b_v16, out_dtype=pl.FP32)
        t__l1a_v18: pl.Tensor[[88, 48], pl.FP16] = pl.tensor.slice(a, [88, 48], [112, 8])
        t__l1b_v19: pl.Tensor[[48, 136], pl.FP16] = pl.tensor.slice(b, [48, 136], [8, 0])
        t__acc_v20: pl.Tensor[[88, 136], pl.FP32] = pl.tensor.matmul_acc(t__acc_v17, t__l1a_v18, t__l1b_v19)
        for k__l1_v21, (t__iter_v22,) in pl.pipeline(23, init_values=(t__acc_v20,), stage=2):
            t__k0_v23: pl.Scalar[pl.INDEX] = 56 + k__l1_v21 * 128
            t__l1a_v24: pl.Tensor[[88, 128], pl.FP16] = pl.tensor.slice(a, [88, 128], [112, t__k0_v23])
            t__l1b_v25: pl.Tensor[[128, 136], pl.FP16] = pl.tensor.slice(b, [128, 136], [t__k0_v23, 0])
            t__acc_v26: pl.Tensor[[88, 136], pl.FP32] = pl.tensor.matmul_acc(t__iter_v22, t__l1a_v24, t__l1b_v25)
            t__rv_v27: pl.Tensor[[88, 136], pl.FP32] = pl.yield_(t__acc_v26)
        t__l1c_v28: pl.Tensor[[200, 136], pl.FP32] = pl.tensor.assemble(t__l1c_v14, t__rv_v27, [112, 0])
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def l1_golden(self, a: pl.Tensor[[200, 3000], pl.FP16], b: pl.Tensor[[3000, 136], pl.FP16], c: pl.Out[pl.Tensor[[200, 136], pl.FP32]]) -> pl.Tensor[[200, 136], pl.FP32]:
        c__ssa_v0: pl.Tensor[[200, 136], pl.FP32] = self.l1_golden_incore_0(a, b, c)
        return c__ssa_v0
