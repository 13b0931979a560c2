# expect: spmd_in_kernel_fn.py:8:9: error: pl.spmd(...) inside a kernel function: SPMD blocks are launched by the orches
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[256, 128], pl.FP32], y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]) -> pl.Tensor[[256, 128], pl.FP32]:
        for i in pl.spmd(4):
            t = pl.load(x, [i * 32, 0], [32, 128])
            y = pl.store(pl.exp(t), [i * 32, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[256, 128], pl.FP32], y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]) -> pl.Tensor[[256, 128], pl.FP32]:
        y = self.k(x, y)
        return y
