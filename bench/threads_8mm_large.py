# bench/threads.sh: 8 independent 512 x 512 x 1024 FP16 matmuls, one device region each (row block i
# of c = row block i of a times b): bench/threads_8mm.py at 8x the work per task, so the run is
# mostly simulation and golden run rather than fixed costs. With --threads N the simulator runs up to
# N of them at once and the golden run goes beside it; results and cycles must not change.
import pypto.language as pl

@pl.jit
def eight(a: pl.Tensor[[4096, 1024], pl.FP16],
          b: pl.Tensor[[1024, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[4096, 512], pl.FP32]]):
    for i in pl.parallel(8):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 512:i * 512 + 512, :] = pl.matmul(a[i * 512:i * 512 + 512, :], b, out_dtype=pl.FP32)
    return c
