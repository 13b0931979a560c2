# L0C double buffer with the Left operand moving (a Mat -> Left extract per iteration over the rows) and a
# stationary Right: 4 trips under stage=2 (the direct-store gate's minimum) get two Acc buffers.
# expect-json: "space":"acc","addr":65536
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[512, 64], pl.FP16], b: pl.Tensor[[64, 128], pl.FP16],
          c: pl.Out[pl.Tensor[[512, 128], pl.FP32]]) -> pl.Tensor[[512, 128], pl.FP32]:
        ta = pl.load(a, [0, 0], [512, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 128], target_memory=pl.Mem.Mat)
        rb = pl.tile.extract(tb, 0, 0, [64, 128], target_memory=pl.Mem.Right)
        for i, (cur,) in pl.pipeline(0, 512, 128, init_values=(c,), stage=2):
            la = pl.tile.extract(ta, i, 0, [128, 64], target_memory=pl.Mem.Left)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [i, 0], cur)
            out = pl.yield_(o2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[512, 64], pl.FP16], b: pl.Tensor[[64, 128], pl.FP16],
             c: pl.Out[pl.Tensor[[512, 128], pl.FP32]]) -> pl.Tensor[[512, 128], pl.FP32]:
        c = self.k(a, b, c)
        return c
