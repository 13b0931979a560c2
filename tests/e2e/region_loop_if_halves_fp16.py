# Issue 6 item 2: if/else inside a loop inside pl.at, each branch writing one half of an Out tensor.
import pypto.language as pl

@pl.jit
def cond(a: pl.Tensor[[64, 64], pl.FP16],
         b: pl.Tensor[[64, 128], pl.FP16],
         c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for j in pl.range(2):
            if j == 0:
                c[:, 0:64] = pl.matmul(a, b[:, 0:64], out_dtype=pl.FP32)
            else:
                c[:, 64:128] = pl.matmul(a, b[:, 64:128], out_dtype=pl.FP32)
    return c
