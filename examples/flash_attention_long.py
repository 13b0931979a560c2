# args: --target a5
# Flash attention over a long sequence, shaped for the cube: 64 queries, head dim 384, 4096 keys in
# blocks of 128, on a5. The online softmax of examples/flash_attention_small.py, software-pipelined across
# the cube / vector hand-off the way production FA kernels are: iteration j computes the softmax of
# block j and the scores of block j + 1, but adds block j - 1's `p @ v` (carried as `pvp`) only
# after block j's probabilities are on their way to the cube. The running accumulator is carried
# without that last term (`b`: acc_{j-1} * alpha_j = (b_{j-1} + pv_{j-1}) * alpha_j, the same vector
# operations in the same order as acc * alpha + pv; block 0's `p @ v` is the prologue's matmul, whose
# K chunking differs, so the output differs from the textbook loop's by at most 1e-6). Why it matters (docs/sim.md, "Flash attention"): in the textbook loop the vector cores
# cannot start block j + 1's softmax before they have added block j's `p @ v`, which the cube can
# only compute after it received block j's p: the cube waits for the softmax and the softmax for
# the cube, 4127 cycles a block with 1913 of cube work (cube busy 45%). Here the vector's chain is
# softmax -> push p only; ExpandMixedKernel pushes the carried pv_j right after the cube made it
# (expand_mixed_carry.c), so the cube holds no accumulator across the back edge. The run is now
# bound by the K / V stream (MTE2 busy 95%): `ptoc run ... --json` gives cube_util 0.66 for
# flash_aic, makespan 95117 cycles (was 137966).
import pypto.language as pl


@pl.jit
def flash_long(q: pl.Tensor[[64, 384], pl.FP16], k: pl.Tensor[[4096, 384], pl.FP16],
               v: pl.Tensor[[4096, 384], pl.FP16], o: pl.Out[pl.Tensor[[64, 384], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        a0 = pl.full([64, 384], dtype=pl.FP32, value=0.0)
        # block 0 (its softmax starts the running max and sum) and block 1's scores
        s0 = pl.matmul(q, k[0:128, :], b_trans=True, out_dtype=pl.FP32)
        m0 = pl.row_max(s0)
        p0 = pl.row_expand_expdif(s0, m0)
        l0 = pl.row_sum(p0)
        pv0 = pl.matmul(pl.cast(p0, pl.FP16), v[0:128, :], out_dtype=pl.FP32)
        s1 = pl.matmul(q, k[128:256, :], b_trans=True, out_dtype=pl.FP32)
        for j, (m, l, b, s, pvp) in pl.pipeline(128, 3968, 128, init_values=(m0, l0, a0, s1, pv0), stage=2):
            mn = pl.maximum(m, pl.row_max(s))
            p = pl.row_expand_expdif(s, mn)
            alpha = pl.exp(pl.sub(m, mn))
            ln = pl.add(pl.mul(alpha, l), pl.row_sum(p))
            k1 = j + 128
            sn = pl.matmul(q, k[k1:k1 + 128, :], b_trans=True, out_dtype=pl.FP32)
            pv = pl.matmul(pl.cast(p, pl.FP16), v[j:j + 128, :], out_dtype=pl.FP32)
            bn = pl.row_expand_mul(pl.add(b, pvp), alpha)        # acc_{j-1} * alpha_j
            m2, l2, b2, s2, pv2 = pl.yield_(mn, ln, bn, sn, pv)
        # the last block, then acc = b + pv and the normalisation
        mf = pl.maximum(m2, pl.row_max(s2))
        pf = pl.row_expand_expdif(s2, mf)
        af = pl.exp(pl.sub(m2, mf))
        lf = pl.add(pl.mul(af, l2), pl.row_sum(pf))
        pvf = pl.matmul(pl.cast(pf, pl.FP16), v[3968:4096, :], out_dtype=pl.FP32)
        bf = pl.row_expand_mul(pl.add(b2, pv2), af)
        o[:] = pl.row_expand_div(pl.add(bf, pvf), lf)
    return o
