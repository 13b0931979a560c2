# Issue 7, scalar element access: the orchestration reads an FP32 element of an input tensor
# (pl.tensor.read), computes a scale from it in double, and passes it to the kernel as a run-time FP32
# scalar operand of pl.mul on an FP16 tile (tile.muls): the runtime rounds it to FP32 at the call, the
# instruction to FP16.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: pl.Tensor[[32, 64], pl.FP16], s: pl.Scalar[pl.FP32],
              y: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        t = pl.load(x, [0, 0], [32, 64])
        u = pl.mul(t, s)
        v = pl.add(u, s * 0.5 + 1.0)
        y2 = pl.store(v, [0, 0], y)
        return y2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[32, 64], pl.FP16], k: pl.Tensor[[4, 8], pl.FP32],
             y: pl.Out[pl.Tensor[[32, 64], pl.FP16]]) -> pl.Tensor[[32, 64], pl.FP16]:
        v = pl.tensor.read(k, [2, 5])
        y = self.scale(x, v / 3.0 + 0.1, y)
        return y
