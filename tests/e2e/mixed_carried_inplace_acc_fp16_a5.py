# args: --target a5
# A loop carrying a cube accumulator that matmul_acc updates in place and the vector cores also read
# after that update (so they see the updated value, as the interpreter does): ExpandMixedKernel must
# not move the push of the carry to the end of the previous iteration (expand_mixed_carry.c moves only
# carries nothing else reads). It did once and sent the value before the update.
import pypto.language as pl


@pl.jit
def carried_both(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[256, 64], pl.FP16], o: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="cb"):
        c0 = pl.matmul(a, b[0:64, :], out_dtype=pl.FP32)
        t0 = pl.full([64, 64], dtype=pl.FP32, value=0.0)
        for j, (c, t) in pl.range(64, 256, 64, init_values=(c0, t0)):
            cn = pl.matmul_acc(c, a, b[j:j + 64, :])
            tn = pl.add(t, pl.mul(c, c))
            c2, t2 = pl.yield_(cn, tn)
        o[:] = pl.add(t2, c2)
    return o
