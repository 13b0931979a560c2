# L0C double buffer declined: a direct store over 2 trips gains too little (the gate needs >= 4); PH-AT-020
# names the rule and the loop keeps one Acc buffer.
# expect-json: PH-AT-020
# expect-json: a direct store needs at least 4 trips to gain, the loop has 2
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
