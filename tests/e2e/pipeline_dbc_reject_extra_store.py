# L0C double buffer declined: the loop also stores the Mat copy of its B block to a second output (another
# store in the body); PH-AT-020 names it and the accumulator keeps one Acc buffer.
# expect-json: 'o3' is another store or write in the loop
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 512], pl.FP32]], d: pl.Out[pl.Tensor[[64, 512], pl.FP16]]) -> pl.Tensor[[128, 512], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur, dcur) in pl.pipeline(0, 512, 128, init_values=(c, d), stage=2):
            tb = pl.load(b, [0, j], [64, 128], target_memory=pl.Mem.Mat)
            rb = pl.tile.move(tb, target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [0, j], cur)
            o3 = pl.store(tb, [0, j], dcur)
            out, dout = pl.yield_(o2, o3)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 512], pl.FP32]], d: pl.Out[pl.Tensor[[64, 512], pl.FP16]]) -> pl.Tensor[[128, 512], pl.FP32]:
        c = self.k(a, b, c, d)
        return c
