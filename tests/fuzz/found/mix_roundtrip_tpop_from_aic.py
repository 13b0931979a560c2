# Status: fixed on main in 7fb72bf (pops take a shape); kept as found, on 328bf16. Found by progfuzz (every 4th seed runs --verify-roundtrip; seeds 32,
# 52, 60, 64, ... of `--seed 1 --count 400`), minimised by the reducer. Side: the IR printer / parser.
# `ptoc run --verify-roundtrip` fails:
#   error: [internal] round trip after 09_after_ExpandMixedKernel.py: the printed program does not parse
#   back: 09_after_ExpandMixedKernel.py:21:83: error: tile.tpop_from_aic: the first argument must be a
#   tensor or a tile
# The printer writes `pl.tile.tpop_from_aic([16, 64], split=0, slot_num=2, dtype=pl.FP32)` (a shape
# first); the parser wants a tensor or tile there. tpop_from_aiv printed the same way. progfuzz skipped the
# round trip on programs with a mixed region behind feature mix_roundtrip (on since the fix).
import pypto.language as pl


@pl.jit
def fz(
        x0: pl.Tensor[[16, 16], pl.FP16],
        x1: pl.Tensor[[16, 64], pl.FP16],
        x2: pl.Tensor[[16, 64], pl.FP32],
        y3: pl.Out[pl.Tensor[[16, 64], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mix0"):
        acc0 = pl.matmul(x0[0:16, 0:16], x1[0:16, 0:64], out_dtype=pl.FP32)
        v0_0 = pl.add(acc0, x2[0:16, 0:64])
        y3[0:16, 0:64] = pl.cast(v0_0, pl.FP16)
    return y3
