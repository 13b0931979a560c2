# args: --target a2a3
# Flash attention written the textbook way: one block of 64 queries (head dim 256) over 16384 keys in
# blocks of 256, in ONE mixed region, with an online softmax — a plain pl.range loop carrying the
# running row max, row sum and unnormalised output. Nothing is hand-scheduled: RotateMixedLoops
# (docs/passes/RotateMixedLoops.md, perf hint PH-RM-001) computes the next block's scores one
# iteration ahead and defers `b += p @ v` to the next iteration, so the cube works while the two vector
# cores (pl.split UP_DOWN) do this block's softmax — the schedule examples/flash_attention.py writes
# by hand, with bit-identical results to the loop as written (`--no-rotate` runs it as written).
# `ptoc run examples/flash_attention_plain.py --json`: cube_util 0.517 on a2a3 (makespan 280048
# cycles; 0.229 and 627598 cycles with --no-rotate), 0.623 with --target a5 (0.334 with --no-rotate).
import pypto.language as pl


@pl.jit
def flash_attention(q: pl.Tensor[[64, 256], pl.FP16], k: pl.Tensor[[16384, 256], pl.FP16],
                    v: pl.Tensor[[16384, 256], pl.FP16], o: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="flash"):
        m0 = pl.full([64, 1], dtype=pl.FP32, value=-1e30)
        l0 = pl.full([64, 1], dtype=pl.FP32, value=0.0)
        b0 = pl.full([64, 256], dtype=pl.FP32, value=0.0)
        for j, (m, l, b) in pl.range(0, 16384, 256, init_values=(m0, l0, b0)):
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
