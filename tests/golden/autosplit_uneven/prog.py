# AutoSplitCores' uneven grid: N = 330 has no grid of equal 16-aligned blocks, so [200, 330] x K 128
# becomes a 1 x 4 grid of [200, 96] blocks — an SPMD task of the 3 whole ones and a task of the 42-wide
# last column (split_sibling=True) — and DeriveCallDirections leaves both output_existing (no order).
import pypto.language as pl


@pl.jit
def mm(a: pl.Tensor[[200, 128], pl.FP16], b: pl.Tensor[[128, 330], pl.FP16], c: pl.Out[pl.Tensor[[200, 330], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
