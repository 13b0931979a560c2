# [32, 64] x [64, 48] BF16 with a pl.NZ right operand (tests/cli/test_nz.sh feeds NZ-ordered bytes for b).
import pypto.language as pl


@pl.jit
def small_bf16(a: pl.Tensor[[32, 64], pl.BF16],
              b: pl.Tensor[[64, 48], pl.BF16, pl.NZ],
              c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
