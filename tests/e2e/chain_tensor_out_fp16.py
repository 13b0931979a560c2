# Tensor level: t = pl.matmul(a, b, out_dtype=FP16) feeding another matmul in the same pl.at — ConvertTensorToTileOps
# keeps t on-chip as a rint tile.cast of the Acc tile, AutoTileMatmulL0 folds it into an Acc -> Mat assemble.
import pypto.language as pl

@pl.jit
def chain(a: pl.Tensor[[128, 128], pl.FP16],
          b: pl.Tensor[[128, 128], pl.FP16],
          e: pl.Tensor[[128, 128], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.matmul(a, b, out_dtype=pl.FP16)
        c[:] = pl.matmul(t, e, out_dtype=pl.FP32)
    return c
