import pypto.language as pl

# bench/mem.sh: peak RSS of `ptoc run` on c = a @ b at 8192 x 8192 x 16.
# Tensor bytes: a 8192x16 FP16 (256 KiB) + b 16x8192 FP16 (256 KiB) + c 8192x8192 FP32 (256 MiB).
@pl.jit
def mm(a: pl.Tensor[[8192, 16], pl.FP16],
       b: pl.Tensor[[16, 8192], pl.FP16],
       c: pl.Out[pl.Tensor[[8192, 8192], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
