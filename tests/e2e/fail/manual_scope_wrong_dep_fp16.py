# Manual scope: the third region declares a dependency on the first only, but reads what the second
# writes. The run must fail naming the second and third tasks.
# expect: tasks 1 'second' and 2 'third' are not ordered: task 1 writes and task 2 reads t (32 x 32 FP32): elements 512..1023 (rows 16..31)
# expect: FAIL
import pypto.language as pl

@pl.jit
def wrong(a: pl.Tensor[[32, 32], pl.FP16],
          b: pl.Tensor[[32, 32], pl.FP16],
          w: pl.Tensor[[32, 16], pl.FP32],
          t: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
          c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
    with pl.manual_scope():
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="first") as t0:
            t[0:16, :] = pl.matmul(a[0:16, :], b, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="second"):
            t[16:32, :] = pl.matmul(a[16:32, :], b, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="third", deps=[t0]):
            c[:] = pl.matmul(t, w, out_dtype=pl.FP32)
    return c
