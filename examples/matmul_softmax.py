# Attention scores: a matmul in one region (the cube, an AIC kernel) and a softmax over its result in
# the next (the vector unit, an AIV kernel). The runtime orders the two tasks through the scores
# tensor in global memory.
import pypto.language as pl


@pl.jit
def matmul_softmax(q: pl.Tensor[[64, 128], pl.FP16], k: pl.Tensor[[128, 64], pl.FP16],
                   p: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        s = pl.matmul(q, k, out_dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP):
        e = pl.exp(pl.sub(s, pl.row_max(s)))
        p[:] = pl.div(e, pl.row_sum(e))
    return p
