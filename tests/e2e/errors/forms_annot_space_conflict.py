# Issue 9 (language.md §2): a tile annotation whose explicit memory space differs from the value's.
# expect: forms_annot_space_conflict.py:9:9: error: 't' is annotated as a tile in pl.Mem.Mat but the value is in pl.Mem.Vec
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t: pl.Tile[[64, 64], pl.FP32, pl.MemorySpace.Mat] = pl.load(x, [0, 0], [64, 64], target_memory=pl.MemorySpace.Vec)
        pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        y = self.k(x, y)
        return y
