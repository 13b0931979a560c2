# args: --target a5
# examples/attention.py on a5.
# Single-block attention in ONE mixed region: scores = q @ k^T on the cube (k is stored [keys, dim],
# read transposed with b_trans=True), a row softmax on the two vector cores (pl.split UP_DOWN: 32 rows
# each), then probs @ v on the cube again. The scores cross cube -> vector, the FP16 probabilities
# vector -> cube, and the output cube -> vector -> GM (the 1/sqrt(d) scale is applied on the way).
import pypto.language as pl


@pl.jit
def attention(q: pl.Tensor[[64, 128], pl.FP16], k: pl.Tensor[[128, 128], pl.FP16],
              v: pl.Tensor[[128, 128], pl.FP16], o: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="attention"):
        s = pl.muls(pl.matmul(q, k, b_trans=True, out_dtype=pl.FP32), 0.08838834764831845)
        e = pl.row_expand_expdif(s, pl.row_max(s))
        p = pl.row_expand_div(e, pl.row_sum(e))
        o[:] = pl.matmul(pl.cast(p, pl.FP16), v, out_dtype=pl.FP32)
    return o
