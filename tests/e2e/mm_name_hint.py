# A named InCore region: the kernel is called mm_kernel instead of mm_named_incore_0.
import pypto.language as pl

@pl.jit
def mm_named(a: pl.Tensor[[64, 256], pl.FP16],
             b: pl.Tensor[[256, 96], pl.FP16],
             c: pl.Out[pl.Tensor[[64, 96], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_kernel"):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
