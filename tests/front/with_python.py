"""A test program with ordinary Python around the DSL."""
import torch
import numpy as np
import pypto.language as pl

M, N, K = 128, 128, 512
KS = 128
weird = {'a': [1, 2, (3,
                      4)], "b": '''triple
   quoted ) ] } string'''}


def helper(x, *args, **kw):
    # not a pl function
    if x > 1:
        return [i ** 2 for i in range(x)]
    s = "unbalanced ( in a string"
    return lambda y: y @ x \
        + 1


class Ref(torch.nn.Module):
    def forward(self, a, b):
        return a @ b


@pl.jit
def mm(a: pl.Tensor[[128, 512], pl.FP16],
       b: pl.Tensor[[512, 128], pl.FP16],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_k"):
        for k0 in pl.range(0, 512, KS):
            p = pl.matmul(a[:, k0:k0 + KS], b[k0:k0 + KS, :], out_dtype=pl.FP32)
            c[0:64, :] = p[0:64, :]
    return c


@pl.jit
def other(a: pl.Tensor[[16, 16], pl.FP32]):
    return a


if __name__ == "__main__":
    a = torch.randn(128, 512, dtype=torch.float16)
    b = torch.randn(512, 128, dtype=torch.float16)
    c = torch.zeros(128, 128)
    mm(a, b, c)
    print(c.sum(), f"{c.shape!r}")
