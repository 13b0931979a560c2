# --cores above the target's cube cores (24 on a2a3) is a clear error naming the bound.
# args: --cores 25
# expect: --cores 25: target a2a3 has 24 cube cores; give 1 (no multi-core split) to 24
import pypto.language as pl


@pl.jit
def mm(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
