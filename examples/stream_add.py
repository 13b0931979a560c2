# A streaming elementwise kernel over 2 MiB per operand: c = a + b in [32, 256] FP32 chunks with a
# two-stage software pipeline (pl.pipeline(stage=2)), so the loads of chunk i + 1 (MTE2) overlap the
# add (V) and store (MTE3) of chunk i. MTE2 moves two bytes for every one MTE3 writes: it is the
# busiest pipe, and `ptoc run --json` reports its busy fraction in pipe_util.
import pypto.language as pl


@pl.jit
def stream_add(a: pl.Tensor[[2048, 256], pl.FP32], b: pl.Tensor[[2048, 256], pl.FP32],
               c: pl.Out[pl.Tensor[[2048, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for r in pl.pipeline(0, 2048, 32, stage=2):
            ta = pl.load(a, [r, 0], [32, 256], target_memory=pl.Mem.Vec)
            tb = pl.load(b, [r, 0], [32, 256], target_memory=pl.Mem.Vec)
            pl.store(pl.add(ta, tb), [r, 0], c)
    return c
