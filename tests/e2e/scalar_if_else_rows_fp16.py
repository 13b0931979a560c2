# t is assigned in both branches of an if inside the loop: it used to be folded as the constant the
# parser saw last (0), so both iterations wrote row block 0 and the interpreter agreed. Now t is a
# variable (a phi), r = 0 then 16, and both row blocks are written.
import pypto.language as pl

@pl.jit
def rows(a: pl.Tensor[[32, 64], pl.FP16],
         b: pl.Tensor[[64, 48], pl.FP16],
         c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    for i in pl.range(2):
        if i > 0:
            t = 1
        else:
            t = 0
        r = t * 16
        with pl.at(level=pl.Level.CORE_GROUP):
            c[r:r + 16, :] = pl.matmul(a[r:r + 16, :], b, out_dtype=pl.FP32)
    return c
