# Issue 11, AutoTileL1 on block-index-dependent windows (the form AutoSplitCores produces): pl.spmd(4)
# blocks of 128 rows of a 512 x 2048 FP16 matmul; each block's operands (512 KiB + 512 KiB) exceed Mat, so
# the pass re-slices a[r0 + m0 : .., k0 : ..] from `a` with the composed dynamic offsets, and stores the
# blocks at [r0 + m0, n0].
# expect-json: "PH-L1-001 
# expect-json: "block_num":4
# expect-json: "races":0
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_spmd_windows_fp16(a: pl.Tensor[[512, 2048], pl.FP16], b: pl.Tensor[[2048, 256], pl.FP16],
                         c: pl.Out[pl.Tensor[[512, 256], pl.FP32]]):
    for i in pl.spmd(4, name_hint="mm"):
        r0 = i * 128
        c[r0:r0 + 128, :] = pl.matmul(a[r0:r0 + 128, :], b, out_dtype=pl.FP32)
    return c
