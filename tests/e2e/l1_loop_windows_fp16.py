# Issue 11, AutoTileL1 inside a pl.range loop of a pl.at region: the matmul's left operand and its store
# are windows at the loop variable's offset (dynamic); the pass composes them with its block offsets.
# expect-json: "PH-L1-001 
# expect-json: "races":0
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def l1_loop_windows_fp16(a: pl.Tensor[[256, 2048], pl.FP16], b: pl.Tensor[[2048, 192], pl.FP16],
                         c: pl.Out[pl.Tensor[[256, 192], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.range(2):
            r0 = i * 128
            c[r0:r0 + 128, :] = pl.matmul(a[r0:r0 + 128, :], b, out_dtype=pl.FP32)
    return c
