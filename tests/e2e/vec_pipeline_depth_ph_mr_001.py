# A stage-2 Vec pipeline over [96, 128] FP32 rows: each stage's load and exp result want their own 48 KiB buffers (196608
# bytes of Vec at depth 2, which holds 188416). MemoryReuse sheds the depth to 1 for the exp results (the two
# stages' results then share one buffer and serialize) with perf hint PH-MR-001 at the loop; the program runs.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[384, 128], pl.FP32], c: pl.Out[pl.Tensor[[384, 128], pl.FP32]]) -> pl.Tensor[[384, 128], pl.FP32]:
        for i, (cur,) in pl.pipeline(0, 384, 96, init_values=(c,), stage=2):
            x = pl.load(a, [i, 0], [96, 128], target_memory=pl.Mem.Vec)
            y = pl.tile.exp(x)
            z = pl.tile.add(y, x)
            c2 = pl.store(z, [i, 0], cur)
            out = pl.yield_(c2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[384, 128], pl.FP32], c: pl.Out[pl.Tensor[[384, 128], pl.FP32]]) -> pl.Tensor[[384, 128], pl.FP32]:
        c = self.k(a, c)
        return c
