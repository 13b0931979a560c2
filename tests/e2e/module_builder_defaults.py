# A @pl.program class nested in a builder function (language.md §1.3 (a)): the class's shapes and
# loop bounds are the builder's parameters (from their defaults: no call site in the file) and a
# straight-line local computed from them (n_tiles = rows // tile).
import pypto.language as pl


def build_program(rows: int = 128, cols: int = 64, tile: int = 32):
    n_tiles = rows // tile

    @pl.program
    class Tiled:
        @pl.function(type=pl.FunctionType.InCore)
        def scale(self, x: pl.Tensor[[rows, cols], pl.FP32],
                  y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]) -> pl.Tensor[[rows, cols], pl.FP32]:
            for i in pl.range(n_tiles):
                t: pl.Tile[[tile, cols], pl.FP32] = pl.load(x, [i * tile, 0], [tile, cols])
                y = pl.store(pl.mul(t, 2.0), [i * tile, 0], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[rows, cols], pl.FP32],
                 y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]) -> pl.Tensor[[rows, cols], pl.FP32]:
            y = self.scale(x, y)
            return y

    return Tiled
