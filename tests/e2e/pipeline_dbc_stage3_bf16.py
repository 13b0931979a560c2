# L0C double buffer, pl.pipeline(stage=3) over 6 trips in BF16: the accumulators rotate over two Acc
# buffers (memberships 0 1 0 | 1 0 1 modulo 2) while Right keeps three.
# expect-json: "space":"acc","addr":65536
# expect-json: "var":"rb_2","space":"right"
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.BF16], b: pl.Tensor[[64, 768], pl.BF16],
          c: pl.Out[pl.Tensor[[128, 768], pl.FP32]]) -> pl.Tensor[[128, 768], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 768], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur,) in pl.pipeline(0, 768, 128, init_values=(c,), stage=3):
            rb = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [0, j], cur)
            out = pl.yield_(o2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.BF16], b: pl.Tensor[[64, 768], pl.BF16],
             c: pl.Out[pl.Tensor[[128, 768], pl.FP32]]) -> pl.Tensor[[128, 768], pl.FP32]:
        c = self.k(a, b, c)
        return c
