# Golden: the L0C double buffer declined (2 trips of a direct store, under the >= 4 gate): no loop attrs after
# AutoTileMatmulL0, the accumulators untagged and the ordinary M0 S0 M1 S1 order after CanonicalizeIOOrder.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 256], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur,) in pl.pipeline(0, 256, 128, init_values=(c,), stage=2):
            rb = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [0, j], cur)
            out = pl.yield_(o2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        c = self.k(a, b, c)
        return c
