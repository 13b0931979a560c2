# Issue 6 item 6: two regions in a manual scope, the second reading the first's output, with no deps:
# on hardware they may run concurrently. The run must fail naming both tasks and the tensor.
# expect: tasks 0 'first' and 1 'second' are not ordered: task 0 writes and task 1 reads t (64 x 64 FP32)
# expect: FAIL
import pypto.language as pl

@pl.jit
def two(a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        t: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.manual_scope():
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="first"):
            t[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="second"):
            c[:] = pl.matmul(t, b, out_dtype=pl.FP32)
    return c
