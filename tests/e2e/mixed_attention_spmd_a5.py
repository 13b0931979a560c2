# args: --target a5
# examples/attention_spmd.py on a5.
# Attention for 256 queries on four clusters: `for i in pl.spmd(4)` launches ONE mixed task of four
# blocks; block i takes query rows [64 i, 64 i + 64), and each block is examples/attention.py (the cube
# computes q_i @ k^T and p @ v, the two vector cores of its cluster the softmax, split by rows). The
# blocks run concurrently on clusters 0..3, so the makespan equals one block's.
import pypto.language as pl


@pl.jit
def attention_spmd(q: pl.Tensor[[256, 128], pl.FP16], k: pl.Tensor[[128, 128], pl.FP16],
                   v: pl.Tensor[[128, 128], pl.FP16], o: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    for i in pl.spmd(4, name_hint="attention", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
        r0 = i * 64
        s = pl.muls(pl.matmul(q[r0:r0 + 64, :], k, b_trans=True, out_dtype=pl.FP32), 0.08838834764831845)
        e = pl.row_expand_expdif(s, pl.row_max(s))
        p = pl.row_expand_div(e, pl.row_sum(e))
        o = pl.assemble(o, pl.matmul(pl.cast(p, pl.FP16), v, out_dtype=pl.FP32), [r0, 0])
    return o
