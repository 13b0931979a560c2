# pl.split_aiv: each vector core of the cluster runs one lane of the loop (rows by lane); pl.tile.get_subblock_idx()
# inside is the lane (lane 1 scales by 2), in the interpreter and on the simulator alike.
import pypto.language as pl

@pl.jit
def rows_exp(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="rows_exp"):
        for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            t = pl.load(x, [lane * 32, 0], [32, 128], target_memory=pl.Mem.Vec)
            u = pl.muls(pl.exp(t), pl.cast(pl.tile.get_subblock_idx() + 1, pl.FP32))
            pl.store(u, [lane * 32, 0], y)
    return y
