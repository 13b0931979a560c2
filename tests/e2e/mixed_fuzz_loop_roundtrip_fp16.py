# progfuzz finding (seed 332 of --seed 1 --count 400): a flash-style loop whose carried value lives on
# the AIV side; the AIC copy of the loop printed pl.yield_() without init_values, so the program after
# ExpandMixedKernel did not parse back (fixed in 7fb72bf). Runs with the round trip after every pass.
# args: --verify-roundtrip
import pypto.language as pl


@pl.jit
def fz(x0: pl.Tensor[[16, 64], pl.FP16], x1: pl.Tensor[[64, 64], pl.FP16], y3: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mix0"):
        o0_0 = pl.full([16, 32], dtype=pl.FP32, value=0.0)
        for j0, (o0,) in pl.range(2, init_values=(o0_0,)):
            acc0 = pl.matmul(x0[0:16, 0:64], x1[0:64, j0 * 32:j0 * 32 + 32], out_dtype=pl.FP32)
            o0_1 = pl.add(o0, acc0)
            o0_2 = pl.yield_(o0_1)
        y3[0:16, 0:32] = o0_2
    return y3
