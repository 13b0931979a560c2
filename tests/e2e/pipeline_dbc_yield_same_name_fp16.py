# A user pipeline written with the loop result named like its iter_arg (for j, (out,) .. out = pl.yield_(..)): ConvertToSSA gives the result its own Var (it was the iter_arg's, which broke the print/parse round trip after LowerPipelineLoops); the L0C double buffer recognises the loop.
# expect-json: "space":"acc","addr":65536
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 1024], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 1024], pl.FP32]]) -> pl.Tensor[[128, 1024], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 1024], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (out,) in pl.pipeline(0, 1024, 128, init_values=(c,), stage=2):
            rb = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [0, j], out)
            out = pl.yield_(o2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 1024], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 1024], pl.FP32]]) -> pl.Tensor[[128, 1024], pl.FP32]:
        c = self.k(a, b, c)
        return c
