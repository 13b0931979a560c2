# Issue 8: tensor-level pl.matmul_acc inside pl.at accumulates into an on-chip accumulator of the same
# region; accumulating into a tensor parameter is refused with the fix.
# expect: matmul_acc_into_tensor.py:10:13: error: tensor.matmul_acc inside pl.at needs an accumulator computed on-chip in the same region (acc = pl.matmul(...) first)
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 64], pl.FP16], c: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        d = pl.matmul_acc(c, a, b)
        c[:] = d
    return c
