# A chained-matmul program of tests/cli/test_chain.sh (inputs and expected output: tests/chain/gen_chain.py).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[256, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], e: pl.Tensor[[256, 64], pl.BF16],
          d: pl.Out[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        ta = pl.load(a, [0, 0], [256, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 256], target_memory=pl.Mem.Mat)
        te = pl.load(e, [0, 0], [256, 64], target_memory=pl.Mem.Mat)
        c = pl.tile.matmul(ta, tb)
        cb = pl.tile.cast(c, pl.BF16, mode="rint")
        dd = pl.tile.matmul(cb, te)
        d2 = pl.store(dd, [0, 0], d)
        return d2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[256, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], e: pl.Tensor[[256, 64], pl.BF16],
             d: pl.Out[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        d = self.k(a, b, e, d)
        return d
