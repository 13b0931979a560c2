# A loop of matmul + vector epilogue in one mixed region: every iteration pushes a block of rows from
# the cube to the vector cores through a ring of 1 slot(s) (pl.cross_core_slot); with more than one
# slot the cube runs ahead of the vector cores.
import pypto.language as pl


@pl.jit
def loop_mixed(a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 96], pl.FP16],
               out: pl.Out[pl.Tensor[[128, 96], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=1)], name_hint="loop_mixed"):
        for i in pl.range(0, 4):
            r0 = i * 32
            acc = pl.matmul(a[r0:r0 + 32, :], b, out_dtype=pl.FP32)
            out = pl.assemble(out, pl.exp(pl.muls(acc, 0.125)), [r0, 0])
    return out
