# A pl.dynamic dimension without a concrete extent: the error says how to give one.
# expect: module_dynamic_unbound.py:12:34: error: 'M' is a pl.dynamic dimension (line 6)
# expect: pass -D M=VALUE
import pypto.language as pl

M = pl.dynamic("M")


@pl.program
class Dyn:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[M, 64], pl.FP32]) -> pl.Tensor[[M, 64], pl.FP32]:
        return x
