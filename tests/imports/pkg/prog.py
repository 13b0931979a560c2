# Constants imported from sibling modules: from .config import ..., from ..config inside kern/consts.py (tests/cli/test_imports.sh).
import pypto.language as pl
import torch
from .config import ROWS, COLS as C, SCALE
from .kern.consts import EXTRA, R0

@pl.jit
def scale(x: pl.Tensor[[ROWS, C], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, C], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [R0, C])
        pl.store(pl.mul(t, SCALE), [0, 0], y)
    return y

if __name__ == "__main__":
    x = torch.randn(ROWS, C, dtype=torch.float32)
    y = torch.zeros(ROWS, C, dtype=torch.float32)
    scale(x, y)
    assert torch.allclose(y, x * SCALE)
