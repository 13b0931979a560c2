# A tile defined in both branches of an if (t = add / t = mul): ConvertToSSA gives each branch its own
# version (one Var defined twice made AllocateMemoryAddr place it twice, at a wrong address), and
# MaterializeSemanticAliases puts both on the phi's buffer. Both branches taken: n = 0 and n = 1.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX],
          c: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        x = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        if n == 0:
            t = pl.add(x, x)
        else:
            t = pl.mul(x, x)
        c = pl.store(t, [0, 0], c)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], c0: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
             c1: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        c0 = self.k(a, 0, c0)
        c1 = self.k(a, 1, c1)
        return c1
