# A mixed region whose cube half stores a result to GM that its vector half then loads: ExpandMixedKernel
# puts a synchronization-only push / pop (a fence) between the store and the load; without it the
# race detector reports the WAR/RAW on GM between the two cores.
import pypto.language as pl

@pl.jit
def fence(a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 64], pl.FP16],
          c: pl.Out[pl.Tensor[[64, 64], pl.FP32]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="fence"):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        out[:] = pl.exp(c)
    return c, out
