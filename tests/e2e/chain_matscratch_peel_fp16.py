# Mat-scratch grid with boundary peels: [384, 336] intermediate, tile 192 x 128 leaves an 80-column N peel; FP16 scratch.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[384, 128], pl.FP16], b: pl.Tensor[[128, 336], pl.FP16], e: pl.Tensor[[336, 32], pl.FP16],
          d: pl.Out[pl.Tensor[[384, 32], pl.FP32]]) -> pl.Tensor[[384, 32], pl.FP32]:
        ta = pl.load(a, [0, 0], [384, 128], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [128, 336], target_memory=pl.Mem.Mat)
        te = pl.load(e, [0, 0], [336, 32], target_memory=pl.Mem.Mat)
        c = pl.tile.matmul(ta, tb)
        cb = pl.tile.cast(c, pl.FP16, mode="rint")
        dd = pl.tile.matmul(cb, te)
        d2 = pl.store(dd, [0, 0], d)
        return d2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[384, 128], pl.FP16], b: pl.Tensor[[128, 336], pl.FP16], e: pl.Tensor[[336, 32], pl.FP16],
             d: pl.Out[pl.Tensor[[384, 32], pl.FP32]]) -> pl.Tensor[[384, 32], pl.FP32]:
        d = self.k(a, b, e, d)
        return d
