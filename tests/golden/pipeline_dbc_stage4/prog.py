# Golden: the L0C double buffer at stage=4 (INT8 x INT8 -> INT32, 8 trips). After CanonicalizeIOOrder the body
# runs loads, M0 M1 S0 S1 M2 M3 S2 S3, the accumulators' memberships rotated modulo 2 (0 1 0 1) while the
# Right extracts keep stages 0..3.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.INT8], b: pl.Tensor[[64, 1024], pl.INT8],
          c: pl.Out[pl.Tensor[[128, 1024], pl.INT32]]) -> pl.Tensor[[128, 1024], pl.INT32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 1024], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur,) in pl.pipeline(0, 1024, 128, init_values=(c,), stage=4):
            rb = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [0, j], cur)
            out = pl.yield_(o2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.INT8], b: pl.Tensor[[64, 1024], pl.INT8],
             c: pl.Out[pl.Tensor[[128, 1024], pl.INT32]]) -> pl.Tensor[[128, 1024], pl.INT32]:
        c = self.k(a, b, c)
        return c
