# L0C double buffer declined: an if in the loop body (the recogniser needs a flat body).
# expect-json: its body is not flat (a nested loop, if or scope)
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 512], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur,) in pl.pipeline(0, 512, 128, init_values=(c,), stage=2):
            rb = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            if j < 256:
                o2 = pl.store(acc, [0, j], cur)
                o3 = pl.yield_(o2)
            else:
                o4 = pl.store(acc, [0, j], cur)
                o3 = pl.yield_(o4)
            out = pl.yield_(o3)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        c = self.k(a, b, c)
        return c
