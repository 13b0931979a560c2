# A vector op on tensors in the orchestration (outside pl.at): no kernel runs it.
# expect: vec_outside_at.py:8:12: error: pl.exp on tensors outside a pl.at region
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    y[:] = pl.exp(x)
    return y
