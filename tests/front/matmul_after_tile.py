# pypto.program: matmul
import pypto.language as pl


@pl.program
class matmul:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_incore_0(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        a__tile: pl.Tile[[128, 512], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 512], [128, 512], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        b__tile: pl.Tile[[512, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [512, 128], [512, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        c_init: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.create([128, 128], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for ko, (c_iter,) in pl.pipeline(0, 512, 128, init_values=(c_init,), stage=2):
            sa: pl.Tile[[128, 128], pl.FP16, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.row_major)] = pl.tile.extract(a__tile, 0, ko, [128, 128], target_memory=pl.Mem.Left)
            sb: pl.Tile[[128, 128], pl.FP16, pl.Mem.Right] = pl.tile.extract(b__tile, ko, 0, [128, 128], target_memory=pl.Mem.Right)
            c_acc: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul_acc(c_iter, sa, sb, ko == 0)
            c_out: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.yield_(c_acc)
        c__store: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(c_out, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator, auto_scope=False)
    def matmul(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        with pl.scope():
            c__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = self.matmul_incore_0(a, b, c, attrs={"arg_directions": [pl.adir.input, pl.adir.input, pl.adir.output_existing]})
        return c__ssa_v0
