# progfuzz seed 42 (minimised): an atomic pl.assemble of a matmul that AutoTileMatmulL0 splits into an
# M/N grid of direct stores; every grid store must keep atomic=Add (it was dropped: c = m, not c + m).
import pypto.language as pl

@pl.jit
def acc_grid(a: pl.Tensor[[128, 256], pl.FP16],
             b: pl.Tensor[[256, 512], pl.FP16],
             c: pl.InOut[pl.Tensor[[128, 512], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        m = pl.matmul(a, b, out_dtype=pl.FP32)
        c = pl.assemble(c, m, [0, 0], atomic=pl.AtomicType.Add)
    return c
