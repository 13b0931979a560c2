# pypto.program: mm_bias_relu
import pypto.language as pl


@pl.program
class mm_bias_relu:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def mm_bias_relu(self, a: pl.Tensor[[512, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.FP32], c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]) -> pl.Tensor[[512, 512], pl.FP32]:
        with pl.spmd(16):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_bias_relu", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
                blk__spmd_v2: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()
                r0__spmd_v3: pl.Scalar[pl.INDEX] = blk__spmd_v2 // 4 * 128
                c0__spmd_v4: pl.Scalar[pl.INDEX] = blk__spmd_v2 % 4 * 128
                a__blk_v5: pl.Tensor[[128, 256], pl.FP16] = pl.tensor.slice(a, [128, 256], [r0__spmd_v3, 0])
                b__blk_v6: pl.Tensor[[256, 128], pl.FP16] = pl.tensor.slice(b, [256, 128], [0, c0__spmd_v4])
                acc: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.matmul(a__blk_v5, b__blk_v6, out_dtype=pl.FP32)
                bias__blk_v7: pl.Tensor[[1, 128], pl.FP32] = pl.tensor.slice(bias, [1, 128], [0, c0__spmd_v4])
                t__tmp_v0: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.col_expand_add(acc, bias__blk_v7)
                t__tmp_v1: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.relu(t__tmp_v0)
                c__ssa_v0: pl.Tensor[[512, 512], pl.FP32] = pl.tensor.assemble(c, t__tmp_v1, [r0__spmd_v3, c0__spmd_v4])
        return c__ssa_v0
