# Rung 1 of the walkthrough (one_matmul_all_the_way_down.md): more cores by splitting the output.
# `for i in pl.spmd(4)` outlines its body to ONE kernel launched as 4 blocks (one task,
# launch_spec.set_block_num(4)); i is the block index, so block i computes rows i*128 .. i*128+127.
# The dependency dump shows one task, block_num 4, no edges; the blocks run on 4 cube cores at once.
# expect-json: "tasks":1,"edges":0
# expect-json: "block_num":4
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def matmul_spmd(a: pl.Tensor[[512, 512], pl.FP16],
                b: pl.Tensor[[512, 128], pl.FP16],
                c: pl.Out[pl.Tensor[[512, 128], pl.FP32]]):
    for i in pl.spmd(4):          # i = block index
        r0 = i * 128
        part = pl.matmul(a[r0:r0 + 128, :], b, out_dtype=pl.FP32)
        c = pl.assemble(c, part, [r0, 0])
    return c
