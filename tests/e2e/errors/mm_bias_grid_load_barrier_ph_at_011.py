# A biased matmul needing an N grid ([1, 512] FP32 bias, 256 columns per Bias window) whose bias load is separated
# from the matmul by a statement other than a load: the whole load cannot be replaced by per-tile window loads
# (PH-AT-011), the call is left untiled and its [256, 512] FP16 right operand overflows L0B, with the hint as a note.
# expect: error: Function 'k': Right buffer usage (262144 bytes) exceeds platform limit (65536 bytes)
# expect: note: this matmul was left untiled (PH-AT-011): its [1, 512] bias must be split into [1, 256] windows, but its tile.load is separated from the matmul by a statement other than a load
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.FP32],
          c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        tbias = pl.load(bias, [0, 0], [1, 512], target_memory=pl.Mem.Mat)
        tz = pl.tile.create([16, 16], dtype=pl.FP16, target_memory=pl.Mem.Mat)
        ta = pl.load(a, [0, 0], [128, 256], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [256, 512], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.FP32],
             c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
