# 128 GiB does not fit in the 64 GiB of global memory of the target: an error naming the parameter.
# expect: shape_exceeds_gm.py:6:7: error: parameter 'a' (pl.Tensor[[1048576, 65536], pl.FP16]) needs 128.0 GiB, more than the 64.0 GiB of global memory on a2a3
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[1048576, 65536], pl.FP16],
      c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a[0:16, 0:16], a[0:16, 0:16], out_dtype=pl.FP32)
    return c
