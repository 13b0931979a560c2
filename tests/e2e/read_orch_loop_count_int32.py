# Issue 7, scalar element access in orchestration code: pl.tensor.write puts 3 into a fresh INT32
# tensor, a vector kernel doubles it (tile.muls on INT32), the orchestration reads the kernel's result
# back (it waits for that task) and runs m // 2 = 3 more tasks: 2 allocations + 1 + 3 tasks.
# expect-json: "tasks":6
# expect-json: "id":5,"kernel":"band"
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def twice(self, n: pl.Tensor[[1, 8], pl.INT32], m: pl.Out[pl.Tensor[[1, 8], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        t = pl.load(n, [0, 0], [1, 8])
        u = pl.mul(t, 2)
        m2 = pl.store(u, [0, 0], m)
        return m2

    @pl.function(type=pl.FunctionType.InCore)
    def band(self, x: pl.Tensor[[64, 32], pl.FP32], y: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
             r0: pl.Scalar[pl.INDEX]) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(x, [r0, 0], [16, 32])
        u = pl.add(t, 1.0)
        y2 = pl.store(u, [r0, 0], y)
        return y2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 32], pl.FP32], y: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        n = pl.create_tensor([1, 8], dtype=pl.INT32)
        n = pl.tensor.write(n, [0, 0], 3)
        m = pl.create_tensor([1, 8], dtype=pl.INT32)
        m = self.twice(n, m)
        cnt = m[0, 0]
        for i in pl.range(cnt // 2):
            y = self.band(x, y, i * 16)
        return y
