# L0C double buffer with the moving operand made by tile.move: each iteration loads a [128, 64] row block
# of a into Mat and moves it whole to Left; stationary Right; stage=4 over 8 trips: two Acc buffers, four
# Left buffers.
# expect-json: "space":"acc","addr":65536
# expect-json: "var":"la_3","space":"left"
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[1024, 64], pl.BF16], b: pl.Tensor[[64, 128], pl.BF16],
          c: pl.Out[pl.Tensor[[1024, 128], pl.FP32]]) -> pl.Tensor[[1024, 128], pl.FP32]:
        tb = pl.load(b, [0, 0], [64, 128], target_memory=pl.Mem.Mat)
        rb = pl.tile.extract(tb, 0, 0, [64, 128], target_memory=pl.Mem.Right)
        for i, (cur,) in pl.pipeline(0, 1024, 128, init_values=(c,), stage=4):
            ta = pl.load(a, [i, 0], [128, 64], target_memory=pl.Mem.Mat)
            la = pl.tile.move(ta, target_memory=pl.Mem.Left)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [i, 0], cur)
            out = pl.yield_(o2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[1024, 64], pl.BF16], b: pl.Tensor[[64, 128], pl.BF16],
             c: pl.Out[pl.Tensor[[1024, 128], pl.FP32]]) -> pl.Tensor[[1024, 128], pl.FP32]:
        c = self.k(a, b, c)
        return c
