# Issue 6 item 6 (FP16 operands, odd shapes, three regions): the third region reads rows written by
# the second without a dependency in the manual scope; the first two are independent (disjoint rows).
# expect: tasks 1 'lower' and 2 'use' are not ordered: task 1 writes and task 2 reads t (48 x 40 FP32): elements 640..1919 (rows 16..47)
# expect: FAIL
# (variant: --target a5)
# args: --target a5
import pypto.language as pl

@pl.jit
def three(a: pl.Tensor[[48, 32], pl.FP16],
          b: pl.Tensor[[32, 40], pl.FP16],
          w: pl.Tensor[[40, 24], pl.FP32],
          t: pl.Out[pl.Tensor[[48, 40], pl.FP32]],
          c: pl.Out[pl.Tensor[[48, 24], pl.FP32]]):
    with pl.manual_scope():
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="upper"):
            t[0:16, :] = pl.matmul(a[0:16, :], b, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="lower"):
            t[16:48, :] = pl.matmul(a[16:48, :], b, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="use"):
            c[:] = pl.matmul(t, w, out_dtype=pl.FP32)
    return c
