# AutoSplitCores declines a region it cannot split as one grid — here two matmuls and two outputs —
# and says so (PH-SC-002) because the first matmul alone would pay; the region stays one task.
# expect-json: PH-SC-002
# expect-json: it stores more than one result
# expect-json: "tasks":1,"edges":0
# expect-json: "block_num":1
import pypto.language as pl


@pl.jit
def two_mm(a: pl.Tensor[[256, 128], pl.FP16], b: pl.Tensor[[128, 256], pl.FP16], b2: pl.Tensor[[128, 256], pl.FP16],
           c: pl.Out[pl.Tensor[[256, 256], pl.FP32]], d: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="two"):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
        d[:] = pl.matmul(a, b2, out_dtype=pl.FP32)
    return c, d
