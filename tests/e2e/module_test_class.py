# Program classes nested in test-class methods (language.md §1.3 (b), (c)): TestRows.get_program
# aliases module constants in its locals (R, C = _R, _C); TestBuilt.get_program returns a builder
# call whose literal arguments bind the builder's parameters. Both classes are named P, so each is
# selected by its path.
# entry: TestRows.get_program.P
# entry: build.P
import pypto.language as pl

_R = 64
_C = 128


class TestRows:
    def get_program(self):
        R, C = _R, _C
        half = R // 2

        @pl.program
        class P:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, x: pl.Tensor[[R, C], pl.FP32],
                  y: pl.Out[pl.Tensor[[R, C], pl.FP32]]) -> pl.Tensor[[R, C], pl.FP32]:
                for i in pl.range(2):
                    t: pl.Tile[[half, C], pl.FP32] = pl.load(x, [i * half, 0], [half, C])
                    y = pl.store(pl.exp(t), [i * half, 0], y)
                return y

            @pl.function(type=pl.FunctionType.Orchestration)
            def main(self, x: pl.Tensor[[R, C], pl.FP32],
                     y: pl.Out[pl.Tensor[[R, C], pl.FP32]]) -> pl.Tensor[[R, C], pl.FP32]:
                y = self.k(x, y)
                return y

        return P


def build(rows, cols):
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, x: pl.Tensor[[rows, cols], pl.FP32],
              y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]) -> pl.Tensor[[rows, cols], pl.FP32]:
            t: pl.Tile[[rows, cols], pl.FP32] = pl.load(x, [0, 0], [rows, cols])
            y = pl.store(pl.add(t, t), [0, 0], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[rows, cols], pl.FP32],
                 y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]) -> pl.Tensor[[rows, cols], pl.FP32]:
            y = self.k(x, y)
            return y

    return P


class TestBuilt:
    def get_program(self):
        return build(32, _C // 2)
