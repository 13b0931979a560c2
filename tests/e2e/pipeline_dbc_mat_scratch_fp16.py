# L0C double buffer on a Mat-scratch drain: 8 trips of [128, 64] FP32 accumulators (32 KiB = L0C / 4, the
# gate's minimum) tile.assemble'd into a [128, 512] Mat tile carried by the loop, stored after it. Two Acc
# buffers (0 and 32 KiB).
# expect-json: "var":"acc_1","space":"acc","addr":32768
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 512], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        s0 = pl.tile.create([128, 512], dtype=pl.FP32, target_memory=pl.Mem.Mat)
        for j, (cur,) in pl.pipeline(0, 512, 64, init_values=(s0,), stage=2):
            rb = pl.tile.extract(tb, 0, j, [64, 64], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            s2 = pl.tile.assemble(cur, acc, [0, j])
            sf = pl.yield_(s2)
        o = pl.store(sf, [0, 0], c)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        c = self.k(a, b, c)
        return c
