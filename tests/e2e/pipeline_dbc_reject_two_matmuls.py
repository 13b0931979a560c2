# L0C double buffer declined: two matmuls in the loop body (the recogniser needs exactly one).
# expect-json: its body holds 2 matmuls, not exactly one
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[256, 512], pl.FP32]]) -> pl.Tensor[[256, 512], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 512], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur,) in pl.pipeline(0, 512, 64, init_values=(c,), stage=2):
            rb = pl.tile.extract(tb, 0, j, [64, 64], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            acc2 = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [0, j], cur)
            o3 = pl.store(acc2, [128, j], o2)
            out = pl.yield_(o3)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
             c: pl.Out[pl.Tensor[[256, 512], pl.FP32]]) -> pl.Tensor[[256, 512], pl.FP32]:
        c = self.k(a, b, c)
        return c
