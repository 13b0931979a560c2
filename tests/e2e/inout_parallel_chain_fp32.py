# Issue 6 item 5: a pl.InOut parameter written by four pl.parallel regions (plain assemble of
# overlapping windows): the callee's Out becomes inout (R-enclosing), so the tasks chain in order and
# the last writer of each row wins, as in the interpreter.
# expect-json: "tasks":4,"edges":3
import pypto.language as pl

@pl.jit
def overlap(a: pl.Tensor[[80, 32], pl.FP32],
            b: pl.Tensor[[32, 32], pl.FP32],
            c: pl.InOut[pl.Tensor[[80, 32], pl.FP32]]):
    for i in pl.parallel(4):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 16:i * 16 + 32, :] = pl.matmul(a[i * 16:i * 16 + 32, :], b, out_dtype=pl.FP32)
    return c
