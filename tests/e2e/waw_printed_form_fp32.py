# Three calls of a hand-written kernel whose Out parameter writes overlapping row windows of c
# (rows 0..31, 16..47, 32..63). The kernel returns the store's result, not the parameter: the
# call's value still aliases c, so R-prior makes the later calls inout and they chain (2 edges);
# the last writer of each row wins, as in the interpreter.
# expect-json: "tasks":3,"edges":2
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[32, 32], pl.FP32],
             c: pl.Out[pl.Tensor[[64, 32], pl.FP32]], r0: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 32], pl.FP32]:
        ta = pl.load(a, [r0, 0], [32, 32], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [32, 32], target_memory=pl.Mem.Mat)
        la = pl.move(ta, target_memory=pl.Mem.Left)
        lb = pl.move(tb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, lb)
        c2 = pl.store(acc, [r0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], b: pl.Tensor[[32, 32], pl.FP32],
             c: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        c = self.rows(a, b, c, 0)
        c = self.rows(a, b, c, 16)
        c = self.rows(a, b, c, 32)
        return c
