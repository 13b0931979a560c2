# 1 ** 9223372036854775807 used to spin the runtime for ever (a loop of 2^63 multiplications);
# `**` is evaluated by squaring now. The exponent comes from the loop, so nothing folds it away:
# the interpreter and the runtime both evaluate (i + 1) ** (2^63 - 1) = 1 and row block 0 is written.
import pypto.language as pl

@pl.jit
def rows(a: pl.Tensor[[32, 64], pl.FP16],
         b: pl.Tensor[[64, 32], pl.FP16],
         c: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
    for i in pl.range(1):
        one = (i + 1) ** 9223372036854775807
        r = (one - 1) * 16
        with pl.at(level=pl.Level.CORE_GROUP):
            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
    for j in pl.range(1, 2):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[j * 16:j * 16 + 16, :] = pl.matmul(a[j * 16:j * 16 + 16, :], b, out_dtype=pl.FP32)
    return c
