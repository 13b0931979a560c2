# Two dependent InCore regions through an intermediate tensor: two kernel tasks, one dependency.
import pypto.language as pl

@pl.jit
def chain(a: pl.Tensor[[64, 128], pl.FP32],
          b: pl.Tensor[[128, 64], pl.FP32],
          w: pl.Tensor[[64, 32], pl.FP32],
          d: pl.Out[pl.Tensor[[64, 32], pl.FP32]]):
    t = pl.create_tensor([64, 64], dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP):
        t[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP):
        d[:] = pl.matmul(t, w, out_dtype=pl.FP32)
    return d
