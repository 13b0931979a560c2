# Gram matrix x @ x^T: both operands read the same window of x; the left operand's load (64 rows, no padding) is
# reused for the right operand, which reads it through a transpose_view (one GM -> Mat load).
import pypto.language as pl

@pl.jit
def gram(x: pl.Tensor[[64, 128], pl.FP16], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(x, x, b_trans=True, out_dtype=pl.FP32)
    return c
