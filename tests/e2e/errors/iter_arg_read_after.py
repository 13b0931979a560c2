# A loop-carried name of an explicit init_values loop read after the loop (instead of the name
# pl.yield_ binds) was an internal verification error (found by make fuzz-parse, for pl.while_).
# expect: iter_arg_read_after.py:13:5: error: the loop-carried 'n' of the loop at line 9 is read after the loop
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
    for i, (n,) in pl.range(2, init_values=(0,)):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 16:i * 16 + 16, :] = pl.matmul(a[i * 16:i * 16 + 16, :], b, out_dtype=pl.FP32)
        m = pl.yield_(n + 1)
    r = n * 2
    return c
