# A window of an NZ tensor that does not start on a 16-row fractal boundary (constant offset: a compile-time error).
# expect: nz_slice_misaligned.py:10:16: error: this window of NZ tensor 'b' ([512, 128] FP16) starts at row 8, not a multiple of 16
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 512], pl.FP16],
       b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a[:, 8:264], b[8:264, :], out_dtype=pl.FP32)
    return c
