import torch
import pypto.language as pl


@pl.jit
def tile_mul(a: pl.Tensor[[32, 64], pl.FP16], b: pl.Tensor[[32, 64], pl.FP16], c: pl.Out[pl.Tensor[[32, 64], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.mul(a, b)
    return c


if __name__ == "__main__":
    a = torch.randn(32, 64, dtype=torch.float16)
    b = torch.randn(32, 64, dtype=torch.float16)
    c = torch.empty(32, 64, dtype=torch.float16)
    ir = tile_mul.lower(a, b, c)
    print(ir)
