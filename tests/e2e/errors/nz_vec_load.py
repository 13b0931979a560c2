# An NZ tensor loaded into Vec: the spec's message, located at the load.
# expect: NZ layout currently supports only matmul operand loads (target_memory=pl.Mem.Mat), got Vec.
# expect: nz_vec_load.py:11:53
import pypto.language as pl


@pl.program
class vec_nz:
    @pl.function(type=pl.FunctionType.InCore)
    def copy_incore(self, b: pl.Tensor[[32, 32], pl.FP16, pl.NZ], c: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        t: pl.Tile[[32, 32], pl.FP16, pl.Mem.Vec] = pl.tile.load(b, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
        c2: pl.Tensor[[32, 32], pl.FP16] = pl.tile.store(t, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def vec_nz(self, b: pl.Tensor[[32, 32], pl.FP16, pl.NZ], c: pl.Out[pl.Tensor[[32, 32], pl.FP16]]) -> pl.Tensor[[32, 32], pl.FP16]:
        r: pl.Tensor[[32, 32], pl.FP16] = self.copy_incore(b, c)
        return r
