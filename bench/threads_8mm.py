# bench/threads.sh: 8 independent 256 x 256 x 512 FP16 matmuls, one device region each (row block i of
# c = row block i of a times b). No region depends on another, so with --threads N the simulator runs
# up to N of them at once; results and cycles must not change.
import pypto.language as pl

@pl.jit
def eight(a: pl.Tensor[[2048, 512], pl.FP16],
          b: pl.Tensor[[512, 256], pl.FP16],
          c: pl.Out[pl.Tensor[[2048, 256], pl.FP32]]):
    for i in pl.parallel(8):
        with pl.at(level=pl.Level.CORE_GROUP):
            c[i * 256:i * 256 + 256, :] = pl.matmul(a[i * 256:i * 256 + 256, :], b, out_dtype=pl.FP32)
    return c
