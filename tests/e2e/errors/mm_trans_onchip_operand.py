# A transposed operand computed on-chip in the same region (a matmul result fed to the next matmul with b_trans) is
# not supported: the transposed operand is read through a view of its GM -> Mat load.
# expect: error: matmul operand 't' is computed on-chip in this pl.at region and marked b_trans
import pypto.language as pl

@pl.jit
def mm_trans_onchip(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16],
                    c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.matmul(a, b, out_dtype=pl.FP16)
        c[:] = pl.matmul(a, t, b_trans=True, out_dtype=pl.FP32)
    return c
