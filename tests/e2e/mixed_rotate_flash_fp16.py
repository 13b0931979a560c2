# RotateMixedLoops on a textbook flash-attention loop (small): the scores are computed one iteration
# ahead and `b = b * alpha + p @ v` is deferred into the next iteration; the first and last
# iterations are peeled. Must match the interpreter (which runs the loop as written), race-free.
# expect-json: "PH-RM-001 
import pypto.language as pl


@pl.jit
def flash_rot(q: pl.Tensor[[64, 128], pl.FP16], k: pl.Tensor[[512, 128], pl.FP16],
              v: pl.Tensor[[512, 128], pl.FP16], o: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        m0 = pl.full([64, 1], dtype=pl.FP32, value=-1e30)
        l0 = pl.full([64, 1], dtype=pl.FP32, value=0.0)
        b0 = pl.full([64, 128], dtype=pl.FP32, value=0.0)
        for j, (m, l, b) in pl.range(0, 512, 64, init_values=(m0, l0, b0)):
            s = pl.matmul(q, k[j:j + 64, :], b_trans=True, out_dtype=pl.FP32)
            mn = pl.maximum(m, pl.row_max(s))
            p = pl.row_expand_expdif(s, mn)
            alpha = pl.exp(pl.sub(m, mn))
            ln = pl.add(pl.mul(alpha, l), pl.row_sum(p))
            pv = pl.matmul(pl.cast(p, pl.FP16), v[j:j + 64, :], out_dtype=pl.FP32)
            bn = pl.add(pl.row_expand_mul(b, alpha), pv)
            m2, l2, b2 = pl.yield_(mn, ln, bn)
        o[:] = pl.row_expand_div(b2, l2)
    return o
