# Walkthrough rung 4 (tests/cli/test_nz.sh feeds NZ-ordered bytes for b through --in).
import pypto.language as pl


@pl.jit
def matmul_nz(a: pl.Tensor[[128, 512], pl.FP16],
              b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
              c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
