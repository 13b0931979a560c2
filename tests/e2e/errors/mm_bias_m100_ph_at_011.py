# Issue 8: a biased matmul whose M is not a whole fractal cannot form a legal Bias window: PH-AT-011, left untiled,
# so its 100 x 512 FP16 left operand overflows L0A with the hint as a note.
# expect: error: Function 'k': Left buffer usage (114688 bytes) exceeds platform limit (65536 bytes)
# expect: note: this matmul was left untiled (PH-AT-011): M = 100 and N = 64 must be multiples of the cube fractal (16)
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[100, 512], pl.FP16], b: pl.Tensor[[512, 64], pl.FP16], bias: pl.Tensor[[1, 64], pl.FP32],
          c: pl.Out[pl.Tensor[[100, 64], pl.FP32]]) -> pl.Tensor[[100, 64], pl.FP32]:
        ta = pl.load(a, [0, 0], [100, 512], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [512, 64], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 64], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[100, 512], pl.FP16], b: pl.Tensor[[512, 64], pl.FP16], bias: pl.Tensor[[1, 64], pl.FP32],
             c: pl.Out[pl.Tensor[[100, 64], pl.FP32]]) -> pl.Tensor[[100, 64], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
