# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)
    def k(self, a: pl.Tensor[[128, 64], pl.INT8], b: pl.Tensor[[64, 1024], pl.INT8], c: pl.Out[pl.Tensor[[128, 1024], pl.INT32]]) -> pl.Tensor[[128, 1024], pl.INT32]:
        ta: pl.Tile[[128, 64], pl.INT8, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 64], [128, 64], target_memory=pl.Mem.Mat)
        tb: pl.Tile[[64, 1024], pl.INT8, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 1024], [64, 1024], target_memory=pl.Mem.Mat)
        la: pl.Tile[[128, 64], pl.INT8, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur,) in pl.range(0, 1024, 512, init_values=(c,), attrs={"pipeline_double_buffer_c": True, "pipeline_overlap_stores": False}):
            rb: pl.Tile[[64, 128], pl.INT8, pl.Mem.Right] = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_membership": "0:0"})
            rb_1: pl.Tile[[64, 128], pl.INT8, pl.Mem.Right] = pl.tile.extract(tb, 0, j + 128, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_membership": "0:1"})
            rb_2: pl.Tile[[64, 128], pl.INT8, pl.Mem.Right] = pl.tile.extract(tb, 0, j + 256, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_membership": "0:2"})
            rb_3: pl.Tile[[64, 128], pl.INT8, pl.Mem.Right] = pl.tile.extract(tb, 0, j + 384, [64, 128], target_memory=pl.Mem.Right, attrs={"pipeline_membership": "0:3"})
            acc: pl.Tile[[128, 128], pl.INT32, pl.Mem.Acc] = pl.tile.matmul(la, rb, attrs={"pipeline_membership": "0:0"})
            acc_1: pl.Tile[[128, 128], pl.INT32, pl.Mem.Acc] = pl.tile.matmul(la, rb_1, attrs={"pipeline_membership": "0:1"})
            o2: pl.Tensor[[128, 1024], pl.INT32] = pl.tile.store(acc, [0, j], cur)
            o2_1: pl.Tensor[[128, 1024], pl.INT32] = pl.tile.store(acc_1, [0, j + 128], o2)
            acc_2: pl.Tile[[128, 128], pl.INT32, pl.Mem.Acc] = pl.tile.matmul(la, rb_2, attrs={"pipeline_membership": "0:0"})
            acc_3: pl.Tile[[128, 128], pl.INT32, pl.Mem.Acc] = pl.tile.matmul(la, rb_3, attrs={"pipeline_membership": "0:1"})
            o2_2: pl.Tensor[[128, 1024], pl.INT32] = pl.tile.store(acc_2, [0, j + 256], o2_1)
            o2_3: pl.Tensor[[128, 1024], pl.INT32] = pl.tile.store(acc_3, [0, j + 384], o2_2)
            out: pl.Tensor[[128, 1024], pl.INT32] = pl.yield_(o2_3)
        return out

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[128, 64], pl.INT8], b: pl.Tensor[[64, 1024], pl.INT8], c: pl.Out[pl.Tensor[[128, 1024], pl.INT32]]) -> pl.Tensor[[128, 1024], pl.INT32]:
        c__ssa_v0: pl.Tensor[[128, 1024], pl.INT32] = self.k(a, b, c)
        return c__ssa_v0
