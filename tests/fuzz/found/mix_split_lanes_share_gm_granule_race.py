# Status: fixed on main in 4f71719 (cross-core GM false sharing filtered exactly); kept as found, on 328bf16. Found by progfuzz (default features with mix_granule on; seeds 87,
# 145, 246, 334, 354 of `--seed 1 --count 400`), minimised by the reducer. Side: the simulator's race
# detector or the mixed-kernel lowering (which one is right is for their owners).
# `ptoc run` reports:
#   race: mix1_aiv1: race: WAW on GM [0, 4160): tstore (MTE3, line 13, kernel mix1_aiv1) overwrites what
#   tstore (MTE3, line 13, kernel mix1_aiv0) wrote, not ordered through a cross-core channel (buffers y6 / y6)
# The values match the interpreter. Under pl.split the two AIV lanes store disjoint halves of the result,
# but y6's rows are 65 FP32 = 260 bytes, so a lane's row piece and the other lane's share a 32-byte GM
# granule (the race detector's unit). Same with a LEFT_RIGHT half row under 32 B (FP16 [16, 16]: 8
# columns = 16 B per lane), with LEFT_RIGHT 72 FP32 columns (36 + 36: tests/e2e/mixed_leftright_ragged_bf16.py
# fails this way on main), and under UP_DOWN with an unaligned row stride (y [17, 65] FP16). Either the
# hardware's GM stores are byte-exact and the detector is too coarse, or they are not and the lowering
# must not split such stores. progfuzz steered around it behind feature mix_granule (on since the fix).
import pypto.language as pl


@pl.jit
def fz(
        x4: pl.Tensor[[16, 16], pl.BF16],
        x5: pl.Tensor[[16, 64], pl.BF16],
        y6: pl.Out[pl.Tensor[[16, 65], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT)], name_hint="mix1"):
        acc1 = pl.matmul(x4[0:16, 0:16], x5[0:16, 0:64], out_dtype=pl.FP32)
        v1_0 = pl.relu(acc1)
        y6[0:16, 0:64] = v1_0
    return y6
