# Flash attention software-pipelined across the cube / vector hand-off (the form of
# examples/flash_attention_long.py, small): the loop carries the cube's `p @ v` of the previous block
# (`pvp`) and the scores of the next (`s`) to the vector cores. ExpandMixedKernel pushes both right
# after the cube made them (their init values before the loop) and drops the cube's carries
# (expand_mixed_carry.c); the vector cores pop them where they are used. Must match the interpreter,
# race-free, with the same channel order on both sides.
import pypto.language as pl


@pl.jit
def flash_carried(q: pl.Tensor[[64, 128], pl.FP16], k: pl.Tensor[[384, 128], pl.FP16],
                  v: pl.Tensor[[384, 128], pl.FP16], o: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        a0 = pl.full([64, 128], dtype=pl.FP32, value=0.0)
        s0 = pl.matmul(q, k[0:64, :], b_trans=True, out_dtype=pl.FP32)
        m0 = pl.row_max(s0)
        p0 = pl.row_expand_expdif(s0, m0)
        l0 = pl.row_sum(p0)
        pv0 = pl.matmul(pl.cast(p0, pl.FP16), v[0:64, :], out_dtype=pl.FP32)
        s1 = pl.matmul(q, k[64:128, :], b_trans=True, out_dtype=pl.FP32)
        for j, (m, l, b, s, pvp) in pl.range(64, 320, 64, init_values=(m0, l0, a0, s1, pv0)):
            mn = pl.maximum(m, pl.row_max(s))
            p = pl.row_expand_expdif(s, mn)
            alpha = pl.exp(pl.sub(m, mn))
            ln = pl.add(pl.mul(alpha, l), pl.row_sum(p))
            k1 = j + 64
            sn = pl.matmul(q, k[k1:k1 + 64, :], b_trans=True, out_dtype=pl.FP32)
            pv = pl.matmul(pl.cast(p, pl.FP16), v[j:j + 64, :], out_dtype=pl.FP32)
            bn = pl.row_expand_mul(pl.add(b, pvp), alpha)
            m2, l2, b2, s2, pv2 = pl.yield_(mn, ln, bn, sn, pv)
        mf = pl.maximum(m2, pl.row_max(s2))
        pf = pl.row_expand_expdif(s2, mf)
        af = pl.exp(pl.sub(m2, mf))
        lf = pl.add(pl.mul(af, l2), pl.row_sum(pf))
        pvf = pl.matmul(pl.cast(pf, pl.FP16), v[320:384, :], out_dtype=pl.FP32)
        bf = pl.row_expand_mul(pl.add(b2, pv2), af)
        o[:] = pl.row_expand_div(pl.add(bf, pvf), lf)
    return o
