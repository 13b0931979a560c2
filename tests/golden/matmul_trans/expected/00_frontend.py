# pypto.program: matmul_trans
import pypto.language as pl


@pl.program
class matmul_trans:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_trans(self, a: pl.Tensor[[512, 100], pl.FP16], b: pl.Tensor[[80, 512], pl.FP16], c: pl.Out[pl.Tensor[[100, 80], pl.FP32]]) -> pl.Tensor[[100, 80], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            c: pl.Tensor[[100, 80], pl.FP32] = pl.tensor.assemble(c, pl.tensor.matmul(a, b, a_trans=True, b_trans=True, out_dtype=pl.FP32), [0, 0])
        return c
