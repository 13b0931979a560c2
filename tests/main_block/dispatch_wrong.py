# dispatch_ok.py with the option defaulting to the broken kernel: the check must fail.
import argparse

import pypto.language as pl
import torch

ROWS = 64
INNER = 128


@pl.jit
def fused(x: pl.Tensor, w: pl.Tensor, shift: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        y[:] = pl.add(pl.matmul(x, w, out_dtype=pl.FP32), shift)
    return y


@pl.jit
def broken(x: pl.Tensor, w: pl.Tensor, shift: pl.Tensor, y: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y[:] = pl.sub(pl.matmul(x, w, out_dtype=pl.FP32), shift)
    return y


KERNELS = {"fused": fused, "broken": broken}

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("-k", "--which-kernel", choices=sorted(KERNELS), default="broken")
    opts = ap.parse_args()
    torch.manual_seed(3)
    x = torch.randn(ROWS, INNER, dtype=torch.float16)
    w = torch.randn(INNER, ROWS, dtype=torch.float16)
    shift = torch.randn(ROWS, ROWS, dtype=torch.float32)
    y = torch.zeros(ROWS, ROWS, dtype=torch.float32)
    KERNELS[opts.which_kernel](x, w, shift, y)
    assert torch.allclose(y, x.float() @ w.float() + shift, rtol=1e-2, atol=1e-2), f"max diff {(y - x.float() @ w.float() - shift).abs().max()}"
