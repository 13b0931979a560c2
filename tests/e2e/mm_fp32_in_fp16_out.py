# FP32 operands, FP16 result (the store converts the FP32 accumulator): compared at FP16's tolerance. The
# cube and the interpreter sum K in different (equally valid) FP32 orders, so some results round to
# neighbouring FP16 values; at FP32's 1e-4 (what the inputs alone would say) 16 of these 16,384 elements
# were reported off and the run failed.
# args: --cores 1
# expect-json: "atol":0.01,
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 512], pl.FP32], b: pl.Tensor[[512, 128], pl.FP32], c: pl.Out[pl.Tensor[[128, 128], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP16)
    return c
