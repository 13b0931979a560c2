# Writing to an NZ tensor (pl.Out pl.NZ) is rejected at the parameter.
# expect: parameter 'c' ([128, 128] FP32) is pl.NZ and pl.Out in 'mm': writing to an NZ tensor is not supported
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 512], pl.FP16],
       b: pl.Tensor[[512, 128], pl.FP16],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32, pl.NZ]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
