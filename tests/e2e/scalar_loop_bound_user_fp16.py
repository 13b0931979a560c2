# Issue 6 item 3: a kernel loop whose bound comes from the orchestration loop index (a scalar argument).
# Task i writes row blocks i..2i (overlapping, chained by the sequential loop).
# expect-json: "tasks":3,"edges":2
import pypto.language as pl

@pl.jit
def tri(a: pl.Tensor[[80, 32], pl.FP16],
        b: pl.Tensor[[32, 48], pl.FP16],
        c: pl.Out[pl.Tensor[[80, 48], pl.FP32]]):
    for i in pl.range(3):
        with pl.at(level=pl.Level.CORE_GROUP):
            for j in pl.range(i + 1):
                c[(i + j) * 16:(i + j) * 16 + 16, :] = pl.matmul(a[(i + j) * 16:(i + j) * 16 + 16, :], b, out_dtype=pl.FP32)
    return c
