# prelu's UINT8 scratch tile needs at least rows + 1 rows and cols / 8 columns (spec/ops.md §2.6).
# expect: vec_prelu_small_tmp.py:12:18: error: tile.prelu: the scratch tile 'tmp' tile [16, 32] UINT8 must be UINT8 with at least 17 rows and 8 columns for 'tx' tile [16, 64] FP32
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 64], pl.FP32], z: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        tx = pl.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        tz = pl.load(z, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        tmp = pl.create_tile([16, 32], dtype=pl.UINT8, target_memory=pl.Mem.Vec)
        pl.store(pl.prelu(tx, tz, tmp), [0, 0], y)
    return y
