# Issue 6 to.language as pl

@pl.jit
def two(a: pl.Tensor[[64, 64], pl.FP32],
        b: pl.Tensor[[64, 64], pl.FP32],
        t: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
        c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.manual_scope():
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="first"):
            t[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="s/cond"):
            c[:] = pl.matmul(t, b, out_dtype=pl.FP32)
    return c
