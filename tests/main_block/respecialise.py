# Three calls of one kernel: the second has the first one's binding (its compile is reused, as a JIT cache would), the third another shape (a new specialisation).
import pypto.language as pl
import torch

@pl.jit
def twice(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(a, [0, 0], [32, 64])
        pl.store(pl.add(t, t), [0, 0], c)
    return c

if __name__ == "__main__":
    a = torch.randn(32, 64, dtype=torch.float32)
    c = torch.zeros(32, 64, dtype=torch.float32)
    twice(a, c)
    assert torch.allclose(c, 2 * a)
    b = torch.full((32, 64), 3.0, dtype=torch.float32)
    d = torch.zeros(32, 64, dtype=torch.float32)
    twice(b, d)
    assert torch.allclose(d, b + b)
    e = torch.ones(64, 64, dtype=torch.float32)
    f = torch.zeros(64, 64, dtype=torch.float32)
    twice(e, f)
    assert torch.allclose(f[0:32, :], 2 * e[0:32, :])
