# A printed-form program whose InCore function loads row bands of a pl.NZ left operand with its own
# pl.load at a scalar row r0 (a kernel argument): the blocked offsets keep r0 % 16 for the run-time
# check; the orchestration passes r0 = 0, 32, 64.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def band(self, a: pl.Tensor[[96, 64], pl.FP16, pl.NZ], b: pl.Tensor[[64, 64], pl.FP16],
             c: pl.Out[pl.Tensor[[96, 64], pl.FP32]], r0: pl.Scalar[pl.INDEX]) -> pl.Tensor[[96, 64], pl.FP32]:
        ta = pl.load(a, [r0, 0], [32, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 64], target_memory=pl.Mem.Mat)
        la = pl.move(ta, target_memory=pl.Mem.Left)
        lb = pl.move(tb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, lb)
        c2 = pl.store(acc, [r0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[96, 64], pl.FP16, pl.NZ], b: pl.Tensor[[64, 64], pl.FP16],
             c: pl.Out[pl.Tensor[[96, 64], pl.FP32]]) -> pl.Tensor[[96, 64], pl.FP32]:
        for i in pl.range(3):
            c = self.band(a, b, c, i * 32)
        return c
