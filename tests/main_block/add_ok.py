import torch
import pypto.language as pl
from pypto.runtime import RunConfig

N = 64


@pl.jit
def tile_add(a: pl.Tensor[[N, 64], pl.FP32], b: pl.Tensor[[N, 64], pl.FP32], c: pl.Out[pl.Tensor[[N, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.add(a, b)
    return c


if __name__ == "__main__":
    torch.manual_seed(0)
    a = torch.randn(N, 64, dtype=torch.float32)
    b = torch.full((N, 64), 3.0, dtype=torch.float32)
    c = torch.zeros((N, 64), dtype=torch.float32)
    tile_add(a, b, c, config=RunConfig())
    expected = a + b
    assert torch.allclose(c, expected, rtol=1e-5, atol=1e-5), (
        f"max diff = {(c - expected).abs().max().item()}"
    )
    print("OK")
