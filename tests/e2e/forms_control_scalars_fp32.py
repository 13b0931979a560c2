# Issue 9 (language.md §1.5, §3): pl.TensorLayout.ND, scalar local annotations (pl.FP32 shorthand,
# pl.Scalar[...]), pl.const, pl.min on scalars, pl.range(a, b, s) with init_values + pl.yield_,
# if / elif / else in a loop, pl.parallel, pl.pipeline(stage=) in the orchestration.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[64, 64], pl.FP32, pl.TensorLayout.ND], n: pl.Scalar[pl.INDEX],
          y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        s: pl.FP32 = 2.0
        c: pl.Scalar[pl.INT32] = pl.const(3, pl.INT32)
        m: pl.INDEX = pl.min(n, 4)
        acc0: pl.Tile[[16, 64], pl.FP32] = pl.full([16, 64], dtype=pl.FP32, value=0.0)
        for i, (acc,) in pl.range(0, m, 1, init_values=(acc0,)):
            t: pl.Tile[[16, 64], pl.FP32] = pl.load(x, [i * 16, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            if i == 0:
                u = pl.mul(t, s)
            elif i == 1:
                u = pl.add(t, 1.0)
            else:
                u = pl.sub(t, 1.0)
            a2 = pl.add(acc, u)
            acc_out = pl.yield_(a2)
        for j in pl.parallel(4):
            t2 = pl.load(x, [j * 16, 0], [16, 64])
            pl.store(pl.add(t2, acc_out), [j * 16, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        for b in pl.pipeline(0, 1, 1, stage=1):
            y = self.k(x, 4, y)
        return y
