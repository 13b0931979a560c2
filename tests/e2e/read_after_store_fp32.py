# Issue 7: a kernel reads back an element of the tensor it just stored (MTE3 -> S sync) and writes a GM element.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]], z: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        e = pl.add(t, 2.0)
        y2 = pl.store(e, [0, 0], y)
        v = pl.tensor.read(y2, [3, 4])
        z2 = pl.tensor.write(z, [0, 2], v * 3.0)
        return z2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]], z: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        z = self.k(x, y, z)
        return z
