# Mixed regions in an orchestration loop, each reading and updating rows of an InOut tensor.
import pypto.language as pl

@pl.jit
def blocks(a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], c: pl.InOut[pl.Tensor[[128, 64], pl.FP32]]):
    for i in pl.range(2):
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="blk"):
            r0 = i * 64
            acc = pl.matmul(a[r0:r0 + 64, :], b, out_dtype=pl.FP32)
            old = c[r0:r0 + 64, :]
            c = pl.assemble(c, pl.add(pl.exp(pl.muls(acc, 0.01)), old), [r0, 0])
    return c
