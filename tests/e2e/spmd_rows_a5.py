# Rung 1 (examples/spmd_rows.py) on a5: one task, 4 blocks on 4 cube cores, no edges.
# args: --target a5
# expect-json: "tasks":1,"edges":0
# expect-json: "block_num":4
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def matmul_spmd(a: pl.Tensor[[512, 512], pl.FP16],
                b: pl.Tensor[[512, 128], pl.FP16],
                c: pl.Out[pl.Tensor[[512, 128], pl.FP32]]):
    for i in pl.spmd(4):
        r0 = i * 128
        part = pl.matmul(a[r0:r0 + 128, :], b, out_dtype=pl.FP32)
        c = pl.assemble(c, part, [r0, 0])
    return c
