# A matmul result consumed by a vector op in the same region mixes cube and vector work (a later
# issue); the error names the value and the fix.
# expect: vec_after_matmul_one_region.py:11:16: error: 's' is computed by the cube (Acc) in this pl.at region
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        s = pl.matmul(a, w, out_dtype=pl.FP32)
        y[:] = pl.exp(s)
    return y
