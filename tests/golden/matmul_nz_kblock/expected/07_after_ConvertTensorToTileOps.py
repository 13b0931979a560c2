# pypto.program: matmul_nz_kblock
import pypto.language as pl


@pl.program
class matmul_nz_kblock:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def matmul_nz_kblock_incore_0(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16, pl.NZ], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t__tmp_v0__tile: pl.Tile[[128, 256], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [128, 256], [128, 256], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        t__tmp_v1__tile: pl.Tile[[256, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [256, 128], [256, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        t0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(t__tmp_v0__tile, t__tmp_v1__tile)
        c__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t0, [0, 0], c, atomic=pl.AtomicType.Add)
        t__tmp_v2__tile: pl.Tile[[128, 256], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 256], [128, 256], [128, 256], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        t__tmp_v3__tile: pl.Tile[[256, 128], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [256, 0], [256, 128], [256, 128], target_memory=pl.Mem.Mat, attrs={"__compiler_tensor_to_tile_mat_bridge": True})
        t1: pl.Tile[[128, 128], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(t__tmp_v2__tile, t__tmp_v3__tile)
        c__store: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t1, [0, 0], c__ssa_v0, atomic=pl.AtomicType.Add)
        return c

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def matmul_nz_kblock(self, a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16, pl.NZ], c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c__ssa_v1: pl.Tensor[[128, 128], pl.FP32] = self.matmul_nz_kblock_incore_0(a, b, c)
        return c__ssa_v1
