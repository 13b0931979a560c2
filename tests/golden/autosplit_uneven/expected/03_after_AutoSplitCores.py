# pypto.program: mm
import pypto.language as pl


@pl.program
class mm:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mm(self, a: pl.Tensor[[200, 128], pl.FP16], b: pl.Tensor[[128, 330], pl.FP16], c: pl.Out[pl.Tensor[[200, 330], pl.FP32]]) -> pl.Tensor[[200, 330], pl.FP32]:
        with pl.spmd(3):
            with pl.at(level=pl.Level.CORE_GROUP):
                blk__spmd_v1: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
                c0__spmd_v2: pl.Scalar[pl.INDEX] = blk__spmd_v1 * 96
                b__blk_v3: pl.Tensor[[128, 96], pl.FP16] = pl.tensor.slice(b, [128, 96], [0, c0__spmd_v2])
                t__tmp_v0: pl.Tensor[[200, 96], pl.FP32] = pl.tensor.matmul(a, b__blk_v3, out_dtype=pl.FP32)
                c__ssa_v0: pl.Tensor[[200, 330], pl.FP32] = pl.tensor.assemble(c, t__tmp_v0, [0, c0__spmd_v2])
        with pl.at(level=pl.Level.CORE_GROUP, split_sibling=True):
            c0__spmd_v4: pl.Scalar[pl.INDEX] = 288
            b__blk_v5: pl.Tensor[[128, 42], pl.FP16] = pl.tensor.slice(b, [128, 42], [0, c0__spmd_v4])
            t__tmp_v0_1: pl.Tensor[[200, 42], pl.FP32] = pl.tensor.matmul(a, b__blk_v5, out_dtype=pl.FP32)
            c__ssa_v0_1: pl.Tensor[[200, 330], pl.FP32] = pl.tensor.assemble(c__ssa_v0, t__tmp_v0_1, [0, c0__spmd_v4])
        return c__ssa_v0_1
