# Unshaped pl.Tensor parameters (the PyPTO examples' style), bound on the command line with --arg;
# the main block is not read (the run uses random inputs and the interpreter golden).
# args: --arg lhs=128x128:fp32 --arg rhs=128x128:fp32 --arg out=128x128:fp32
import pypto.language as pl


@pl.jit
def vadd(lhs: pl.Tensor, rhs: pl.Tensor, out: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        x = pl.load(lhs, [0, 0], [128, 128])
        y = pl.load(rhs, [0, 0], [128, 128])
        pl.store(pl.add(x, y), [0, 0], out)
    return out


if __name__ == "__main__":
    import torch
    p = torch.ones((128, 128), dtype=torch.float32)
    q = torch.ones((128, 128), dtype=torch.float32)
    r = torch.zeros((128, 128), dtype=torch.float32)
    vadd(p, q, r)
