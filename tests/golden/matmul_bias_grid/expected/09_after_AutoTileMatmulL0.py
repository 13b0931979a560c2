# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[512, 64], pl.FP16], b: pl.Tensor[[64, 528], pl.FP16], bias: pl.Tensor[[1, 528], pl.FP32], c: pl.Out[pl.Tensor[[512, 528], pl.FP32]]) -> pl.Tensor[[512, 528], pl.FP32]:
        ta: pl.Tile[[512, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [512, 64], [512, 64], target_memory=pl.Mem.Mat)
        tb: pl.Tile[[64, 528], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 528], [64, 528], target_memory=pl.Mem.Mat)
        for mi__idx_v0, (out__iter_v1,) in pl.range(0, 512, 256, init_values=(c,)):
            c2__l0a_v2: pl.Tile[[256, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, mi__idx_v0, 0, [256, 64], target_memory=pl.Mem.Left)
            for ni__idx_v3, (out__iter_v4,) in pl.pipeline(0, 512, 128, init_values=(out__iter_v1,), stage=2):
                c2__l0b_v5: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, ni__idx_v3, [64, 128], target_memory=pl.Mem.Right)
                c2__bias_v6: pl.Tile[[1, 128], pl.FP32, pl.Mem.Mat] = pl.tile.load(bias, [0, ni__idx_v3], [1, 128], [1, 128], target_memory=pl.Mem.Mat)
                c2__acc_v7: pl.Tile[[256, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_bias(c2__l0a_v2, c2__l0b_v5, c2__bias_v6)
                c2__out_v8: pl.Tensor[[512, 528], pl.FP32] = pl.tile.store(c2__acc_v7, [mi__idx_v0, ni__idx_v3], out__iter_v4)
                out__rv_v9: pl.Tensor[[512, 528], pl.FP32] = pl.yield_(c2__out_v8)
            c2__l0b_v10: pl.Tile[[64, 16], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, 512, [64, 16], target_memory=pl.Mem.Right)
            c2__bias_v11: pl.Tile[[1, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(bias, [0, 512], [1, 16], [1, 16], target_memory=pl.Mem.Mat)
            c2__acc_v12: pl.Tile[[256, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_bias(c2__l0a_v2, c2__l0b_v10, c2__bias_v11)
            c2__out_v13: pl.Tensor[[512, 528], pl.FP32] = pl.tile.store(c2__acc_v12, [mi__idx_v0, 512], out__rv_v9)
            out__rv_v14: pl.Tensor[[512, 528], pl.FP32] = pl.yield_(c2__out_v13)
        return out__rv_v14

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[512, 64], pl.FP16], b: pl.Tensor[[64, 528], pl.FP16], bias: pl.Tensor[[1, 528], pl.FP32], c: pl.Out[pl.Tensor[[512, 528], pl.FP32]]) -> pl.Tensor[[512, 528], pl.FP32]:
        c__ssa_v0: pl.Tensor[[512, 528], pl.FP32] = self.k(a, b, bias, c)
        return c__ssa_v0
