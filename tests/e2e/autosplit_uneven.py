# AutoSplitCores splits only into equal 16-aligned blocks that divide M and N: M = 1000 and N = 1001 have
# none on the 24 cube cores, so the region stays one task — and a hint says so, with what an uneven
# grid would gain and the fix (until 2026-12-01 it stayed on one core without a word).
# expect-json: PH-SC-002
# expect-json: splits only into equal 16-aligned blocks that divide M and N
# expect-json: "block_num":1
import pypto.language as pl


@pl.jit
def mm(a: pl.Tensor[[1000, 256], pl.FP16], b: pl.Tensor[[256, 1001], pl.FP16], c: pl.Out[pl.Tensor[[1000, 1001], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
