# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        ta: pl.Tile[[128, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 64], [128, 64], target_memory=pl.Mem.Mat)
        tb: pl.Tile[[64, 256], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 256], [64, 256], target_memory=pl.Mem.Mat)
        la: pl.Tile[[128, 64], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur,) in pl.range(0, 256, 256, init_values=(c,)):
            rb: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_membership": "0:0"})
            rb_1: pl.Tile[[64, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(tb, 0, j + 128, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_membership": "0:1"})
            acc: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(la, rb)
            o2: pl.Tensor[[128, 256], pl.FP32] = pl.tile.store(acc, [0, j], cur)
            acc_1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(la, rb_1)
            o2_1: pl.Tensor[[128, 256], pl.FP32] = pl.tile.store(acc_1, [0, j + 128], o2)
            out: pl.Tensor[[128, 256], pl.FP32] = pl.yield_(o2_1)
        return out

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        c__ssa_v0: pl.Tensor[[128, 256], pl.FP32] = self.k(a, b, c)
        return c__ssa_v0
