# Status: fixed on main in 7fb72bf; was a regression of d345862 "an impossible Acc carry is a located error"; compiled
# and matched before). Found by progfuzz (feature splitk, the peeled spelling: seed 733 of `--seed 1
# --count 800` and about 4% of default seeds), minimised by the reducer. Side: MaterializeSemanticAliases.
# `ptoc run` rejects it:
#   error: loop-carried accumulator 'acc6__iter_v4' (a matmul result in Acc) cannot stay in one buffer:
#   the value yielded for it is computed while 'acc6__iter_v4' is still read; ...
# The same with pl.range instead of pl.pipeline, and the committed e2e tests splitk_peel_*.py,
# and splitk_chain_peel_fits_fp16.py fail the same way on main.
import pypto.language as pl


@pl.jit
def fz(
        y4: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        x5: pl.Tensor[[16, 64], pl.FP16],
        x6: pl.Tensor[[64, 16], pl.FP16]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc6 = pl.tile.create([16, 16], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb6 in pl.pipeline(0, 2, stage=2):
            ma6 = pl.load(x5, [0, kb6 * 32], [16, 32], target_memory=pl.Mem.Mat)
            mb6 = pl.load(x6, [kb6 * 32, 0], [32, 16], target_memory=pl.Mem.Mat)
            if kb6 == 0:
                acc6 = pl.tile.matmul(ma6, mb6)
            else:
                acc6 = pl.tile.matmul_acc(acc6, ma6, mb6)
        y4 = pl.store(acc6, [0, 0], y4)
    return y4
