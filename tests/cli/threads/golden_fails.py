# test_threads: the golden interpreter rejects this program at run time (the band offset computed from the
# random input idx is negative), so with --threads > 1, where the golden run overlaps the simulation,
# the simulation's own reports must be dropped: the same diagnostics and --json as with one thread.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def band(self, x: pl.Tensor[[64, 32], pl.FP32], y: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
             r0: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(x, [r0, 0], [16, 32])
        u = pl.add(t, 1.0)
        y2 = pl.store(u, [0, 0], y)
        return y2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, idx: pl.Tensor[[1, 8], pl.INT32], x: pl.Tensor[[64, 32], pl.FP32],
             y: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        r = idx[0, 0]
        y = self.band(x, y, r * 0 - 16)
        return y
