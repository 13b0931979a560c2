# prog.py:NAME naming nothing: the error lists the entries (jit functions and program classes, by path).
# entry: Nope
# expect: no @pl.jit function, @pl.program class or function named 'Nope'
# expect: build.Q (@pl.program)
# expect: Top (@pl.program)
import pypto.language as pl


@pl.program
class Top:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        return x


def build(n=16):
    @pl.program
    class Q:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[n, 16], pl.FP32]) -> pl.Tensor[[n, 16], pl.FP32]:
            return x

    return Q
