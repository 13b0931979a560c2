# Issue 9 (language.md §2): a keyword that is not a parameter of the op is located at the keyword and lists the parameters.
# expect: forms_wrong_keyword.py:9:41: error: tile.load has no parameter 'offset' (parameters: tensor, offsets, shapes, valid_shape=shapes, target_memory=pl.Mem.Vec, clamp=False)
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t = pl.load(x, shapes=[64, 64], offset=[0, 0])
        pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        y = self.k(x, y)
        return y
