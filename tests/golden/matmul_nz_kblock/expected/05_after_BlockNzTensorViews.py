# pypto.program: matmul_nz_kblock
import pypto.language as pl


@pl.program
class matmul_nz_kblock:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_nz_kblock_incore_0(self, c: pl.Tensor[[128, 128], pl.FP32], a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[1, 8, 32, 16, 16], pl.FP16, pl.NZ]) -> pl.Tensor[[128, 128], pl.FP32]:
        for k0, (c__iter_v0,) in pl.range(0, 512, 256, init_values=(c,)):
            t__tmp_v0__tile: pl.Tile[[128, 256], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k0], [128, 256], [128, 256], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
            t__tmp_v1__tile: pl.Tile[[256, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0, k0 // 16, 0, 0], [256, 128], [256, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
            t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(t__tmp_v0__tile, t__tmp_v1__tile)
            c__ssa_v1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c__iter_v0, atomic=pl.AtomicType.Add)
            c__rv_v2: pl.Tensor[[128, 128], pl.FP32] = pl.yield_(c__ssa_v1)
        return c__rv_v2

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_nz_kblock(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16, pl.NZ], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__rv_v2: pl.Tensor[[128, 128], pl.FP32] = self.matmul_nz_kblock_incore_0(c, a, b)
        return c__rv_v2
