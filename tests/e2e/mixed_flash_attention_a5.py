# args: --target a5
# examples/flash_attention_small.py on a5.
# Flash attention for one block of 64 queries (head dim 128) over 256 keys, in ONE mixed region
# with an online softmax: the loop over KV blocks of 64 carries the running row max m, the running
# row sum l and the unnormalised output acc (pl.range with init_values). The cube computes the scores
# s = q @ k_j^T and the products p @ v_j; the two vector cores (pl.split UP_DOWN, 32 rows each) do
# the softmax bookkeeping. The loop is software-pipelined by hand: the scores of block j + 1 are
# computed before p_j @ v_j, so the cube works on them while the vector cores are still busy with
# block j's softmax (ExpandMixedKernel keeps each core's program order; the 2-slot ring lets the cube
# run one block ahead). k is stored [keys, dim] and read transposed (b_trans=True).
import pypto.language as pl


@pl.jit
def flash_attention(q: pl.Tensor[[64, 128], pl.FP16], k: pl.Tensor[[256, 128], pl.FP16],
                    v: pl.Tensor[[256, 128], pl.FP16], o: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        m0 = pl.full([64, 1], dtype=pl.FP32, value=-1e30)
        l0 = pl.full([64, 1], dtype=pl.FP32, value=0.0)
        a0 = pl.full([64, 128], dtype=pl.FP32, value=0.0)
        s0 = pl.muls(pl.matmul(q, k[0:64, :], b_trans=True, out_dtype=pl.FP32), 0.08838834764831845)
        for j, (m, l, acc, s) in pl.range(0, 192, 64, init_values=(m0, l0, a0, s0)):
            mn = pl.maximum(m, pl.row_max(s))
            p = pl.row_expand_expdif(s, mn)                  # exp(s - mn), row-wise
            alpha = pl.exp(pl.sub(m, mn))
            ln = pl.add(pl.mul(alpha, l), pl.row_sum(p))
            k1 = j + 64
            sn = pl.muls(pl.matmul(q, k[k1:k1 + 64, :], b_trans=True, out_dtype=pl.FP32), 0.08838834764831845)   # next block's scores
            pv = pl.matmul(pl.cast(p, pl.FP16), v[j:j + 64, :], out_dtype=pl.FP32)
            an = pl.add(pl.row_expand_mul(acc, alpha), pv)
            m2, l2, acc2, s2 = pl.yield_(mn, ln, an, sn)
        mf = pl.maximum(m2, pl.row_max(s2))
        pf = pl.row_expand_expdif(s2, mf)
        af = pl.exp(pl.sub(m2, mf))
        lf = pl.add(pl.mul(af, l2), pl.row_sum(pf))
        pvf = pl.matmul(pl.cast(pf, pl.FP16), v[192:256, :], out_dtype=pl.FP32)
        o[:] = pl.row_expand_div(pl.add(pl.row_expand_mul(acc2, af), pvf), lf)
    return o
