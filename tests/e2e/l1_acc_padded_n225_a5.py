# AutoTileL1 judged a block's accumulator by the L0 chooser, which counts its columns unpadded: a5's
# [288, 225] FP32 block was 259,200 bytes counted and 276,480 allocated (225 columns boxed to 240),
# over L0C's 262,144 — a capacity error on a program that fits (found by the uneven-split sweep).
# Now the padded accumulator must fit: two blocks of 144 x 225.
# args: --target a5 --cores 1
# expect-json: L1-tiled into 2 block(s) of 144 x 225
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[1008, 288], pl.BF16], b: pl.Tensor[[225, 1008], pl.BF16], c: pl.Out[pl.Tensor[[288, 225], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:, :] = pl.matmul(a, b, out_dtype=pl.FP32, a_trans=True, b_trans=True)
    return c
