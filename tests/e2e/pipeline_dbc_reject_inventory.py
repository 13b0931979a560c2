# L0C double buffer declined by the whole-function Acc inventory: a 16 KiB accumulator before the loop and
# the loop's 64 KiB one, plus the 64 KiB second slot, would need 144 KiB of a 128 KiB L0C.
# expect-json: the function's Acc values need 81920 bytes and the second accumulator slot(s) 65536 more, over the 131072 bytes of L0C
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 512], pl.FP32]], d: pl.Out[pl.Tensor[[128, 32], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 512], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        r0 = pl.tile.extract(tb, 0, 0, [64, 32], target_memory=pl.Mem.Right)
        first = pl.tile.matmul(la, r0)
        d2 = pl.store(first, [0, 0], d)
        for j, (cur,) in pl.pipeline(0, 512, 128, init_values=(c,), stage=2):
            rb = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [0, j], cur)
            out = pl.yield_(o2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 512], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 512], pl.FP32]], d: pl.Out[pl.Tensor[[128, 32], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        c = self.k(a, b, c, d)
        return c
