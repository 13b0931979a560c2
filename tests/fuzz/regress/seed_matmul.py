import pypto.language as pl

@pl.jit
def matmul(a: pl.Tensor[[128, 512], pl.FP16],
           b: pl.Tensor[[512, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
