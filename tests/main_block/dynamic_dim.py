# A pl.dynamic dimension M takes its extent from the bound tensor of the main block's call (48) or from --arg.
import pypto.language as pl
import torch

M = pl.dynamic("M")

@pl.jit
def scale(x: pl.Tensor[[M, 64], pl.FP32], y: pl.Out[pl.Tensor[[M, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(x, [0, 0], [M, 64])
        pl.store(pl.mul(t, 3.0), [0, 0], y)
    return y

if __name__ == "__main__":
    x = torch.randn(48, 64, dtype=torch.float32)
    y = torch.zeros(48, 64, dtype=torch.float32)
    scale(x, y)
    assert torch.allclose(y, 3 * x, rtol=1e-5, atol=1e-5)
