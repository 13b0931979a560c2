# Status: fixed on main in 7fb72bf (empty yields dropped with their carries); kept as found, on 328bf16. Found by progfuzz (seed 332 of `--seed 1 --count 400`, a mix_loop
# region under --verify-roundtrip), minimised by hand. Side: ExpandMixedKernel's output as printed.
# `ptoc run --verify-roundtrip` fails (the run itself is OK):
#   error: [internal] round trip after 09_after_ExpandMixedKernel.py: the printed program does not parse
#   back: 09_after_ExpandMixedKernel.py:16:13: error: pl.yield_ in a loop without init_values
# The carried value lives on the AIV side; the AIC kernel's copy of the loop has no init_values left but
# still prints `pl.yield_()`. progfuzz skipped the round trip on mixed programs behind mix_roundtrip (on since the fix).
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
