# A window 8 columns wide is not whole 16-column FP16 fractals.
# expect: nz_window_cols.py:11:16: error: this window of NZ tensor 'b' ([512, 128] FP16) is 512 x 8
# expect: make the window's columns a multiple of 16
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 512], pl.FP16],
       b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
       c: pl.Out[pl.Tensor[[128, 8], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b[:, 0:8], out_dtype=pl.FP32)
    return c
