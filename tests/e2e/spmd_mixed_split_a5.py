# SPMD around a sole mixed pl.at region split UP_DOWN (each AIV lane takes half the rows), on a5:
# one MIX task of 4 blocks, each block a cluster; the region reads its block index.
# args: --target a5
# expect-json: "kernel":"mm_relu","core":"mix","block_num":4
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def mm_relu_spmd(a: pl.Tensor[[256, 128], pl.FP16],
                 b: pl.Tensor[[128, 128], pl.FP16],
                 c: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    with pl.spmd(4):
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mm_relu"):
            i = pl.tile.get_block_idx()
            r0 = i * 64
            acc = pl.matmul(a[r0:r0 + 64, :], b, out_dtype=pl.FP32)
            c[r0:r0 + 64, :] = pl.relu(acc)
    return c
