# RotateMixedLoops would carry 80 x 256 FP32 scores beside the 80 x 256 p @ v in L0C (160 KiB of a2a3's
# 128 KiB): the rotated program does not compile, so the driver compiles it again as written and says
# why (PH-RM-002). tests/cli/test_rotate.sh.
import pypto.language as pl


@pl.jit
def flash_attention(q: pl.Tensor[[80, 128], pl.FP16], k: pl.Tensor[[4096, 128], pl.FP16],
                    v: pl.Tensor[[4096, 128], pl.FP16], o: pl.Out[pl.Tensor[[80, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        m0 = pl.full([80, 1], dtype=pl.FP32, value=-1e30)
        l0 = pl.full([80, 1], dtype=pl.FP32, value=0.0)
        a0 = pl.full([80, 128], dtype=pl.FP32, value=0.0)
        for j, (m, l, b) in pl.range(0, 4096, 256, init_values=(m0, l0, a0)):
            s = pl.matmul(q, k[j:j + 256, :], b_trans=True, out_dtype=pl.FP32)
            mn = pl.maximum(m, pl.row_max(s))
            p = pl.row_expand_expdif(s, mn)
            alpha = pl.exp(pl.sub(m, mn))
            ln = pl.add(pl.mul(alpha, l), pl.row_sum(p))
            pv = pl.matmul(pl.cast(p, pl.FP16), v[j:j + 256, :], out_dtype=pl.FP32)
            bn = pl.add(pl.row_expand_mul(b, alpha), pv)
            m2, l2, b2 = pl.yield_(mn, ln, bn)
        o[:] = pl.row_expand_div(b2, l2)
    return o
