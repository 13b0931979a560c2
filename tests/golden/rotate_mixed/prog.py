# Golden: RotateMixedLoops on a textbook flash-attention loop of 4 trips (the stage-2 schedule
# fits). Expected: iteration 0 peeled
# before the loop with the scores of blocks 0 and 1 (s__pro, s__nx) and no add into b (b is the init);
# a pl.pipeline(stage=2) loop over blocks 1..2 carrying (m, l, b's x = row_expand_mul(b, alpha),
# p @ v, the next scores) whose body first rebuilds b = add(x_prev, pv_prev), computes the next
# block's scores at the place of the original matmul and leaves the add out; iteration 3 peeled after
# it with the add in place; the loop's results replaced by the peeled iteration's values.
import pypto.language as pl


@pl.jit
def flash_rot(q: pl.Tensor[[32, 64], pl.FP16], k: pl.Tensor[[256, 64], pl.FP16],
              v: pl.Tensor[[256, 64], pl.FP16], o: pl.Out[pl.Tensor[[32, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="flash"):
        m0 = pl.full([32, 1], dtype=pl.FP32, value=-1e30)
        l0 = pl.full([32, 1], dtype=pl.FP32, value=0.0)
        b0 = pl.full([32, 64], dtype=pl.FP32, value=0.0)
        for j, (m, l, b) in pl.range(0, 256, 64, init_values=(m0, l0, b0)):
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
