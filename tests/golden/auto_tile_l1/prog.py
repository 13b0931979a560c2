# AutoTileL1 golden: a ragged 200 x 136 x 3000 FP16 matmul whose operands (2 MiB) exceed Mat (512 KiB):
# M/N block nests with peeled tail blocks, a sub-fractal K head and a stage-2 pl.pipeline over K chunks.
import pypto.language as pl

@pl.jit
def l1_golden(a: pl.Tensor[[200, 3000], pl.FP16], b: pl.Tensor[[3000, 136], pl.FP16], c: pl.Out[pl.Tensor[[200, 136], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
