# pypto.program: matmul
import pypto.language as pl


@pl.program
class matmul:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_incore_0(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t__tmp_v0: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.matmul(a, b, out_dtype=pl.FP32)
        c__store: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.assemble(c, t__tmp_v0, [0, 0])
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = self.matmul_incore_0(a, b, c)
        return c__ssa_v0
