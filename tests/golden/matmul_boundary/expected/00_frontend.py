# pypto.program: matmul
import pypto.language as pl


@pl.program
class matmul:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul(self, a: pl.Tensor[[320, 64], pl.BF16], b: pl.Tensor[[64, 320], pl.BF16], c: pl.Out[pl.Tensor[[320, 320], pl.FP32]]) -> pl.Tensor[[320, 320], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            c: pl.Tensor[[320, 320], pl.FP32] = pl.tensor.assemble(c, pl.tensor.matmul(a, b, out_dtype=pl.FP32), [0, 0])
        return c
