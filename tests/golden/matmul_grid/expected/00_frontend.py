# pypto.program: mm_grid
import pypto.language as pl


@pl.program
class mm_grid:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mm_grid(self, a: pl.Tensor[[512, 128], pl.FP16], b: pl.Tensor[[128, 512], pl.FP16], c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]) -> pl.Tensor[[512, 512], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            c: pl.Tensor[[512, 512], pl.FP32] = pl.tensor.assemble(c, pl.tensor.matmul(a, b, out_dtype=pl.FP32), [0, 0])
        return c
