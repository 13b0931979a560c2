# Two pipeline stages of two [64, 256] FP32 chunks need 256 KiB of UB (188416 bytes on a2a3): a
# capacity error naming the tiles and the vector fix.
# expect: error: Function 'stream_add_incore_0': Vec buffer usage (262144 bytes) exceeds platform limit (188416 bytes)
# expect: the vector working set does not fit UB
import pypto.language as pl


@pl.jit
def stream_add(a: pl.Tensor[[2048, 256], pl.FP32], b: pl.Tensor[[2048, 256], pl.FP32],
               c: pl.Out[pl.Tensor[[2048, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for r in pl.pipeline(0, 2048, 64, stage=2):
            ta = pl.load(a, [r, 0], [64, 256], target_memory=pl.Mem.Vec)
            tb = pl.load(b, [r, 0], [64, 256], target_memory=pl.Mem.Vec)
            pl.store(pl.add(ta, tb), [r, 0], c)
    return c
