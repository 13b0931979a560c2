import argparse
import torch
import pypto.language as pl
from pypto.runtime import RunConfig

M = 64


@pl.jit
def matmul_64(a: pl.Tensor[[M, 64], pl.FP32], b: pl.Tensor[[64, 64], pl.FP32], c: pl.Out[pl.Tensor[[M, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b)
    return c


@pl.jit
def scale(x: pl.Tensor[[M, 64], pl.FP32], y: pl.Out[pl.Tensor[[M, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.mul(x, 0.5)
    return y


def golden(a, b):
    return a @ b


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    cfg = RunConfig(platform="a2a3sim", block_dim=4)
    torch.manual_seed(0)
    a = torch.randn(M, 64, dtype=torch.float32)
    b = torch.randn(64, 64, dtype=torch.float32)
    c = torch.zeros((M, 64), dtype=torch.float32)
    matmul_64(a, b, c, config=cfg)
    assert torch.allclose(c, torch.matmul(a, b), rtol=1e-3, atol=1e-3)
    for i in range(3):
        print(i)
    golden(a, b)
    y = torch.zeros_like(c)
    scale(c, y, config=cfg)
    torch.testing.assert_close(y, (a @ b) * 0.5, rtol=1e-3, atol=1e-3)
    assert torch.allclose(y, torch.linalg.norm(c), rtol=1e-3, atol=1e-3)
    assert y.shape == (M, 64)
    print("OK")
