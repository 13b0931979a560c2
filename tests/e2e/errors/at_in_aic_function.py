# A pl.at region inside a kernel function (here AIC) has nothing to be outlined from: a located
# user error (it was "internal: IR verification failed ... a pl.at region remains after outlining").
# expect: at_in_aic_function.py:12:9: error: 'with pl.at(...)' inside the AIC function 'k'
import pypto.language as pl


@pl.program
class at_in_aic:
    @pl.function(type=pl.FunctionType.AIC)
    def k(self, a: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        n: pl.Scalar[pl.INDEX] = 1
        with pl.at(level=pl.Level.CORE_GROUP):
            m: pl.Scalar[pl.INDEX] = n + 1
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = self.k(a, c)
        return r
