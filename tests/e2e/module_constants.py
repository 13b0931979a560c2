# Module constants (language.md §1.4): tuple assignment, expressions over earlier constants
# (// * - ** min max int), and a float constant substituted where the body reads it.
import pypto.language as pl

T, K, N = 16, 32, 64
ROWS = 4 * T                      # 64
COLS = min(N * 2, 2 ** 7) - K     # 96
TILE = max(ROWS // 4, 8)          # 16
EPS = 1e-6
SCALE = int(2.9) / 4              # 0.5 (a float)


@pl.jit
def scaled(x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for r in pl.range(0, ROWS, TILE):
            t = pl.load(x, [r, 0], [TILE, COLS])
            u = pl.add(pl.mul(t, SCALE), EPS)
            pl.store(u, [r, 0], y)
    return y
