# A cube matmul stored to GM, then a pl.split_aiv loop (columns by lane) that loads it back: the GM fence reaches both
# vector cores (one push to each lane, one pop on each).
import pypto.language as pl

@pl.jit
def mm_then_lanes(a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 96], pl.FP16],
                  c: pl.Out[pl.Tensor[[64, 96], pl.FP32]], y: pl.Out[pl.Tensor[[64, 96], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_lanes"):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            t = pl.load(c, [0, lane * 48], [64, 48], target_memory=pl.Mem.Vec)
            pl.store(pl.relu(t), [0, lane * 48], y)
    return c, y
