# Issue 6 item 4, walkthrough rung 4: B is pl.NZ (its bytes are already in NZ fractal order, [512, 128]
# FP16 blocked as [1, 8, 32, 16, 16]); the Mat load of B is NZ -> NZ. The interpreter and the
# simulator both read the NZ-ordered input buffer as the logical matrix.
import pypto.language as pl


@pl.jit
def matmul_nz(a: pl.Tensor[[128, 512], pl.FP16],
              b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
              c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
