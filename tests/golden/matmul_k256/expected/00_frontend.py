# pypto.program: matmul_k256
import pypto.language as pl


@pl.program
class matmul_k256:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_k256(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            c: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.assemble(c, pl.tensor.matmul(a, b, out_dtype=pl.FP32), [0, 0])
        return c
