# Issue 6 item 2: a loop inside pl.at assigning column blocks of an Out tensor (the region writes
# c through the loop's carried value: c is an Out parameter of the kernel, not an input).
import pypto.language as pl

@pl.jit
def cols(a: pl.Tensor[[64, 64], pl.FP16],
         b: pl.Tensor[[64, 192], pl.FP16],
         c: pl.Out[pl.Tensor[[64, 192], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for j in pl.range(3):
            c[:, j*64:j*64+64] = pl.matmul(a, b[:, j*64:j*64+64], out_dtype=pl.FP32)
    return c
