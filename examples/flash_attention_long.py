# args: --target a5
# Flash attention over a long sequence, shaped for the cube: 64 queries, head dim 384, 4096 keys in
# blocks of 128, on a5. Same algorithm as examples/flash_attention.py (online softmax, the next block's
# scores computed before this block's p @ v), with pl.pipeline(stage=2) so the K / V loads of the next
# blocks go to their own L1 buffers while the current ones are in use. The cube is busy about 45% of
# the task (`ptoc run ... --json`: cube_util of flash_aic); the rest is the cube waiting for the vector
# cores' softmax and for K / V in GM (docs/sim.md). On a2a3 the pipeline's L0 buffers do not fit.
import pypto.language as pl


@pl.jit
def flash_long(q: pl.Tensor[[64, 384], pl.FP16], k: pl.Tensor[[4096, 384], pl.FP16],
               v: pl.Tensor[[4096, 384], pl.FP16], o: pl.Out[pl.Tensor[[64, 384], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        m0 = pl.full([64, 1], dtype=pl.FP32, value=-1e30)
        l0 = pl.full([64, 1], dtype=pl.FP32, value=0.0)
        a0 = pl.full([64, 384], dtype=pl.FP32, value=0.0)
        s0 = pl.matmul(q, k[0:128, :], b_trans=True, out_dtype=pl.FP32)
        for j, (m, l, acc, s) in pl.pipeline(0, 3968, 128, init_values=(m0, l0, a0, s0), stage=2):
            mn = pl.maximum(m, pl.row_max(s))
            p = pl.row_expand_expdif(s, mn)
            alpha = pl.exp(pl.sub(m, mn))
            ln = pl.add(pl.mul(alpha, l), pl.row_sum(p))
            k1 = j + 128
            sn = pl.matmul(q, k[k1:k1 + 128, :], b_trans=True, out_dtype=pl.FP32)
            pv = pl.matmul(pl.cast(p, pl.FP16), v[j:j + 128, :], out_dtype=pl.FP32)
            an = pl.add(pl.row_expand_mul(acc, alpha), pv)
            m2, l2, acc2, s2 = pl.yield_(mn, ln, an, sn)
        mf = pl.maximum(m2, pl.row_max(s2))
        pf = pl.row_expand_expdif(s2, mf)
        af = pl.exp(pl.sub(m2, mf))
        lf = pl.add(pl.mul(af, l2), pl.row_sum(pf))
        pvf = pl.matmul(pl.cast(pf, pl.FP16), v[3968:4096, :], out_dtype=pl.FP32)
        o[:] = pl.row_expand_div(pl.add(pl.row_expand_mul(acc2, af), pvf), lf)
    return o
