# expect: the branches of this if give 'r' two different accumulator (Acc) buffers
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], n: pl.Scalar[pl.INDEX],
          c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ta = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        p = pl.tile.matmul(ta, tb)
        q = pl.tile.matmul(tb, ta)
        if n == 0:
            r = p
        else:
            r = q
        c = pl.store(r, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c = self.k(a, b, 1, c)
        return c
