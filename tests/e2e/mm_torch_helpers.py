# A realistic user file: torch set-up code and plain Python helpers around the DSL. ptoc parses
# only the pl parts; everything else is skipped.
import math
import torch
import pypto.language as pl

M, N, K = 128, 64, 256
SCALE = 1.0 / math.sqrt(K)


def make_inputs(seed=0):
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(M, K, generator=g, dtype=torch.float16)
    b = torch.randn(K, N, generator=g, dtype=torch.float16)
    return a, b, torch.zeros(M, N, dtype=torch.float32)


class Checker:
    def __init__(self, atol=1e-2):
        self.atol = atol

    def check(self, got, want):
        return torch.allclose(got, want, atol=self.atol)


@pl.jit
def mm_torch(a: pl.Tensor[[128, 256], pl.FP16],
             b: pl.Tensor[[256, 64], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c


if __name__ == "__main__":
    a, b, c = make_inputs()
    mm_torch(a, b, c)
    print(Checker().check(c, a.float() @ b.float()))
