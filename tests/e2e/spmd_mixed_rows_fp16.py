# SPMD launch of a mixed cube + vector kernel: each block is a whole cluster (1 AIC + 2 AIV), the
# matmul of its 64 rows on the cube, the relu on the vector cores; one MIX task of 4 blocks.
# expect-json: "kernel":"mm_relu","core":"mix","block_num":4
# expect-json: "tasks":1,"edges":0
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def mm_relu_spmd(a: pl.Tensor[[256, 128], pl.FP16],
                 b: pl.Tensor[[128, 128], pl.FP16],
                 c: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    for i in pl.spmd(4, name_hint="mm_relu"):
        r0 = i * 64
        acc = pl.matmul(a[r0:r0 + 64, :], b, out_dtype=pl.FP32)
        c[r0:r0 + 64, :] = pl.relu(acc)
    return c
