# A transposed INT8 left operand is boxed in 32-row boxes along M; with M = 237 no M block (nor the
# tail) starts and ends on whole boxes, so AutoTileL1 cannot block this overflowing matmul: the
# PH-L1-002 hint says why and how to fix it, and the Mat capacity error stands.
# expect: M = 237 is not a multiple of 32, the box rows of its transposed INT8 left operand, so no M block tiles it (pad M to 256 with zeros, or pass the left operand untransposed)
# expect: Mat buffer usage (1093632 bytes) exceeds platform limit (524288 bytes)
# args: --cores 1
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[1424, 237], pl.INT8],
       b: pl.Tensor[[1424, 507], pl.INT8],
       c: pl.Out[pl.Tensor[[237, 507], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.INT32)
    return c
