# Write-after-read is never tracked by the runtime (spec/runtime.md §5.1): the first region only
# reads c, so it registers nothing in the TensorMap, and the second region's write of c gets no edge
# to it. On hardware the write may land before the read: the run must report the race.
# expect: tasks 0 'read_c' and 1 'write_c' are not ordered: task 0 reads and task 1 writes c (32 x 32 FP32)
# expect: FAIL
import pypto.language as pl

@pl.jit
def war(a: pl.Tensor[[32, 32], pl.BF16],
        b: pl.Tensor[[32, 32], pl.BF16],
        w: pl.Tensor[[32, 32], pl.FP32],
        c: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
        t: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="read_c"):
        t[:] = pl.matmul(c, w, out_dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="write_c"):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return t
