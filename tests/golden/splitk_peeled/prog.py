# Golden: canonical split-K chain, peeled spelling (if k0 == 0: matmul else matmul_acc, merged at the phi).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[256, 256], pl.FP16], b: pl.Tensor[[256, 256], pl.FP16],
          c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        acc0 = pl.tile.create([256, 256], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 2, init_values=(acc0,), stage=2):
            k0 = kb * 128
            ta = pl.load(a, [0, k0], [256, 128], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [k0, 0], [128, 256], target_memory=pl.Mem.Mat)
            if k0 == 0:
                t0 = pl.tile.matmul(ta, tb)
                acc3 = pl.yield_(t0)
            else:
                t1 = pl.tile.matmul_acc(acc, ta, tb)
                acc3 = pl.yield_(t1)
            acc = pl.yield_(acc3)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[256, 256], pl.FP16], b: pl.Tensor[[256, 256], pl.FP16],
             c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]) -> pl.Tensor[[256, 256], pl.FP32]:
        c = self.k(a, b, c)
        return c
