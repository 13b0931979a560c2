# L0C double buffer declined: a Mat-scratch drain of [128, 32] FP32 accumulators (16 KiB < L0C / 4).
# expect-json: a Mat-scratch drain needs an aligned accumulator of at least 32768 bytes (L0C / 4) to gain, 'acc' has 16384
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 256], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        s0 = pl.tile.create([128, 256], dtype=pl.FP32, target_memory=pl.Mem.Mat)
        for j, (cur,) in pl.pipeline(0, 256, 32, init_values=(s0,), stage=2):
            rb = pl.tile.extract(tb, 0, j, [64, 32], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            s2 = pl.tile.assemble(cur, acc, [0, j])
            sf = pl.yield_(s2)
        o = pl.store(sf, [0, 0], c)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 256], pl.FP32]]) -> pl.Tensor[[128, 256], pl.FP32]:
        c = self.k(a, b, c)
        return c
