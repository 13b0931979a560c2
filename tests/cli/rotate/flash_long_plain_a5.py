# args: --target a5
# The textbook flash-attention loop at examples/flash_attention_long.py's shape (64 queries, head dim
# 384, 4096 keys in blocks of 128, a5). RotateMixedLoops tries the rotated loop as a
# pl.pipeline(stage=2) first: here it fits (the hand-written example uses stage 2 too), and the cube is
# busy 66.8% (32.4% as written; 40.8% with the rotated loop as a plain pl.range). At stage 1 the
# hoisted loads of both matmuls overflow L0B (98304 > 65536 bytes), which is why the driver tries the
# schedules in order. tests/cli/test_rotate.sh.
import pypto.language as pl


@pl.jit
def flash_attention(q: pl.Tensor[[64, 384], pl.FP16], k: pl.Tensor[[4096, 384], pl.FP16],
                    v: pl.Tensor[[4096, 384], pl.FP16], o: pl.Out[pl.Tensor[[64, 384], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        m0 = pl.full([64, 1], dtype=pl.FP32, value=-1e30)
        l0 = pl.full([64, 1], dtype=pl.FP32, value=0.0)
        b0 = pl.full([64, 384], dtype=pl.FP32, value=0.0)
        for j, (m, l, b) in pl.range(0, 4096, 128, init_values=(m0, l0, b0)):
            s = pl.matmul(q, k[j:j + 128, :], b_trans=True, out_dtype=pl.FP32)
            mn = pl.maximum(m, pl.row_max(s))
            p = pl.row_expand_expdif(s, mn)
            alpha = pl.exp(pl.sub(m, mn))
            ln = pl.add(pl.mul(alpha, l), pl.row_sum(p))
            pv = pl.matmul(pl.cast(p, pl.FP16), v[j:j + 128, :], out_dtype=pl.FP32)
            bn = pl.add(pl.row_expand_mul(b, alpha), pv)
            m2, l2, b2 = pl.yield_(mn, ln, bn)
        o[:] = pl.row_expand_div(b2, l2)
    return o
