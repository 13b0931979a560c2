# A biased matmul needing an N grid whose bias is INT16: the cube moves only FP32 / FP16 / BF16 biases into an FP32
# result, so no Bias window can be formed: PH-AT-011, left untiled, and the [256, 512] FP16 right operand overflows
# L0B with the hint as a note.
# expect: error: Function 'k': Right buffer usage (262144 bytes) exceeds platform limit (65536 bytes)
# expect: note: this matmul was left untiled (PH-AT-011): its bias is INT16, which the cube cannot move to Bias for a FP32 result
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.INT16],
          c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 256], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [256, 512], target_memory=pl.Mem.Mat)
        tbias = pl.load(bias, [0, 0], [1, 512], target_memory=pl.Mem.Mat)
        acc = pl.tile.matmul_bias(ta, tb, tbias)
        c2 = pl.store(acc, [0, 0], c)
        return c2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16], bias: pl.Tensor[[1, 512], pl.INT16],
             c: pl.Out[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        c = self.k(a, b, bias, c)
        return c
