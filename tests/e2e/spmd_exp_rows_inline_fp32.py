# Vector SPMD, the inline with form: the body reads the block index itself, so it is the kernel.
# Each of 8 blocks computes exp of its 32 rows; rows per block from pl.tile.get_block_num(); the
# AIV lane (pl.tile.get_subblock_idx(), 0 for a vector task) offsets nothing. `as tid` names the
# task for the deps of the next region; sync_start makes the 8 blocks start together.
# expect-json: "tasks":2,"edges":1
# expect-json: "kernel":"exp_block","core":"aiv","block_num":8
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def exp_rows(x: pl.Tensor[[256, 128], pl.FP32],
             y: pl.Out[pl.Tensor[[256, 128], pl.FP32]],
             z: pl.Out[pl.Tensor[[32, 128], pl.FP32]]):
    with pl.spmd(core_num=8, name_hint="exp_block", sync_start=True) as tid:
        i = pl.tile.get_block_idx()
        n = pl.tile.get_block_num()
        lane = pl.tile.get_subblock_idx()
        r0 = i * (256 // n) + lane * 0
        t = pl.load(x, [r0, 0], [32, 128])
        pl.store(pl.exp(t), [r0, 0], y)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="tail", deps=[tid]):
        z[:] = pl.add(y[224:256, :], y[0:32, :])
    return y, z
