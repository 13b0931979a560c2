# args: --target a2a3
# Flash attention for one block of 64 queries (head dim 256) over 16384 keys in blocks of 256, in ONE
# mixed region with an online softmax: the loop over KV blocks (pl.pipeline with init_values) carries
# the running row max, the running row sum, the unnormalised output and — software-pipelined the way
# production FA kernels are — block j + 1's scores and block j - 1's p @ v, so the cube computes the
# next scores and the last product while the two vector cores (pl.split UP_DOWN) do block j's softmax.
# k is stored [keys, dim] and read transposed (b_trans=True). Shaped for a2a3's 128 KiB L0C (a block's
# scores 64 x 256 and p @ v 64 x 256, FP32, take all of it); it runs on a5 as well.
# `ptoc run examples/flash_attention.py --json`: cube_util 0.513 on a2a3 (makespan 282221 cycles),
# 0.621 with --target a5. The bound is the K / V stream: per block of 256 keys the cube works 2232
# cycles of a 4177-cycle period while MTE2 loads K and V (2 x 128 KiB) and pops p from the GM ring;
# the first and last blocks run alone, so the sequence is long (docs/sim.md, "Flash attention").
# examples/flash_attention_long.py is the a5 variant (head dim 384); examples/flash_attention_small.py
# the same computation at toy size (vector-bound: the cube is busy ~10%).
import pypto.language as pl


@pl.jit
def flash_attention(q: pl.Tensor[[64, 256], pl.FP16], k: pl.Tensor[[16384, 256], pl.FP16],
                    v: pl.Tensor[[16384, 256], pl.FP16], o: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        a0 = pl.full([64, 256], dtype=pl.FP32, value=0.0)
        s0 = pl.matmul(q, k[0:256, :], b_trans=True, out_dtype=pl.FP32)
        m0 = pl.row_max(s0)
        p0 = pl.row_expand_expdif(s0, m0)
        l0 = pl.row_sum(p0)
        pv0 = pl.matmul(pl.cast(p0, pl.FP16), v[0:256, :], out_dtype=pl.FP32)
        s1 = pl.matmul(q, k[256:512, :], b_trans=True, out_dtype=pl.FP32)
        for j, (m, l, b, s, pvp) in pl.pipeline(256, 16128, 256, init_values=(m0, l0, a0, s1, pv0), stage=1):
            mn = pl.maximum(m, pl.row_max(s))
            p = pl.row_expand_expdif(s, mn)
            alpha = pl.exp(pl.sub(m, mn))
            ln = pl.add(pl.mul(alpha, l), pl.row_sum(p))
            k1 = j + 256
            sn = pl.matmul(q, k[k1:k1 + 256, :], b_trans=True, out_dtype=pl.FP32)
            pv = pl.matmul(pl.cast(p, pl.FP16), v[j:j + 256, :], out_dtype=pl.FP32)
            bn = pl.row_expand_mul(pl.add(b, pvp), alpha)
            m2, l2, b2, s2, pv2 = pl.yield_(mn, ln, bn, sn, pv)
        mf = pl.maximum(m2, pl.row_max(s2))
        pf = pl.row_expand_expdif(s2, mf)
        af = pl.exp(pl.sub(m2, mf))
        lf = pl.add(pl.mul(af, l2), pl.row_sum(pf))
        pvf = pl.matmul(pl.cast(pf, pl.FP16), v[16128:16384, :], out_dtype=pl.FP32)
        bf = pl.row_expand_mul(pl.add(b2, pv2), af)
        o[:] = pl.row_expand_div(pl.add(bf, pvf), lf)
    return o
