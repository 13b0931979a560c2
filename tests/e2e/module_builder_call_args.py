# A builder called with literal arguments in the main block (language.md §1.3, §8 decision 4): the
# call `build(64, N=128)` binds M and N (N's default 32 is overridden); K is a module constant used in
# the builder's locals; the class is selected by its path.
# entry: build.AddRows
import pypto.language as pl

K = 16


def build(M, N=32):
    rows_per_tile = K
    n_tiles = M // rows_per_tile

    @pl.program
    class AddRows:
        @pl.function(type=pl.FunctionType.InCore)
        def add(self, a: pl.Tensor[[M, N], pl.FP32], b: pl.Tensor[[M, N], pl.FP32],
                c: pl.Out[pl.Tensor[[M, N], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
            for i in pl.range(n_tiles):
                x: pl.Tile[[rows_per_tile, N], pl.FP32] = pl.load(a, [i * rows_per_tile, 0], [rows_per_tile, N])
                y: pl.Tile[[rows_per_tile, N], pl.FP32] = pl.load(b, [i * rows_per_tile, 0], [rows_per_tile, N])
                c = pl.store(pl.add(x, y), [i * rows_per_tile, 0], c)
            return c

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, a: pl.Tensor[[M, N], pl.FP32], b: pl.Tensor[[M, N], pl.FP32],
                 c: pl.Out[pl.Tensor[[M, N], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
            c = self.add(a, b, c)
            return c

    return AddRows


if __name__ == "__main__":
    program = build(64, N=128)
    print(program)
