# A manual scope whose regions touch disjoint rows needs no dependencies: the task-level race check
# stays clean (two tasks, no edges).
# expect-json: "tasks":2,"edges":0
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def halves(a: pl.Tensor[[64, 32], pl.FP16],
           b: pl.Tensor[[32, 48], pl.FP16],
           c: pl.Out[pl.Tensor[[64, 48], pl.FP32]]):
    with pl.manual_scope():
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="top"):
            c[0:32, :] = pl.matmul(a[0:32, :], b, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="bottom"):
            c[32:64, :] = pl.matmul(a[32:64, :], b, out_dtype=pl.FP32)
    return c
