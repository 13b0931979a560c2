# Golden: tile.matmul_acc with a caller init_cond (4 operands) inside the user's K loop: AutoTileMatmulL0 K-tiles each
# chunk of 320 with the predicate `init_cond and ko == 0` in its pipelined loop (k = 80, no tail).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 640], pl.FP16], b: pl.Tensor[[640, 128], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        acc = pl.tile.create([128, 128], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb in pl.range(0, 2):
            ta = pl.load(a, [0, kb * 320], [128, 320], target_memory=pl.Mem.Mat)
            tb = pl.load(b, [kb * 320, 0], [320, 128], target_memory=pl.Mem.Mat)
            acc = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 640], pl.FP16], b: pl.Tensor[[640, 128], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c = self.k(a, b, c)
        return c
