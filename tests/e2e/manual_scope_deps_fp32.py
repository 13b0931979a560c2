# A manual scope with an explicit dependency: 'with pl.at(...) as t0' names the first region's task,
# deps=[t0] orders the second after it (one explicit edge); the race check is clean.
# expect-json: "tasks":2,"edges":1
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def two(a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        t: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.manual_scope():
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="first") as t0:
            t[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="second", deps=[t0]):
            c[:] = pl.matmul(t, b, out_dtype=pl.FP32)
    return c
