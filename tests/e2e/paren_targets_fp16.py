# Parenthesised assignment targets, as Python allows them: (M, N) = a.shape, (x) = v, and a one-value
# pl.yield_ unpacked as a 1-tuple, (r,) = pl.yield_(acc), here a K loop accumulating in the cube.
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[64, 512], pl.FP16], b: pl.Tensor[[512, 128], pl.FP16], c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    (M, N) = c.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        (acc0) = pl.matmul(a[:, 0:128], b[0:128, :], out_dtype=pl.FP32)
        for j, (acc,) in pl.range(128, 512, 128, init_values=(acc0,)):
            acc2 = pl.matmul_acc(acc, a[:, j:j + 128], b[j:j + 128, :])
            (r,) = pl.yield_(acc2)
        c[0:M, 0:N] = r
    return c
