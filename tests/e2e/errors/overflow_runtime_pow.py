# An overflow in a scalar the orchestration computes at run time (from a loop variable, so it
# cannot be folded) is an error located at the expression, in the interpreter and the runtime alike.
# expect: overflow_runtime_pow.py:11:21: error: integer overflow: 2 ** 64 does not fit
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 16], pl.FP16],
      b: pl.Tensor[[16, 16], pl.FP16],
      c: pl.Out[pl.Tensor[[32, 16], pl.FP32]]):
    for i in pl.range(2):
        s = (i + 2) ** 64
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 16:i * 16 + 16, :] = pl.matmul(a[i * 16:i * 16 + 16, :], b, out_dtype=pl.FP32)
    return c
