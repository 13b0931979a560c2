# expect: [PH-AT-009
# expect: mode="rint"
# expect: chain_fp32_a2a3_ph_at_009.py:17:14
# a2a3: an FP32 chained intermediate needs a BF16/FP16 Mat scratch (TINSERT narrows only).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[256, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], e: pl.Tensor[[256, 64], pl.FP32],
          d: pl.Out[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        ta = pl.load(a, [0, 0], [256, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 256], target_memory=pl.Mem.Mat)
        te = pl.load(e, [0, 0], [256, 64], target_memory=pl.Mem.Mat)
        c = pl.tile.matmul(ta, tb)
        cb = c
        dd = pl.tile.matmul(cb, te)
        d2 = pl.store(dd, [0, 0], d)
        return d2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[256, 64], pl.FP16], b: pl.Tensor[[64, 256], pl.FP16], e: pl.Tensor[[256, 64], pl.FP32],
             d: pl.Out[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        d = self.k(a, b, e, d)
        return d
