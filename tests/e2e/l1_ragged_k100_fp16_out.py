# Issue 11: K = 100 (not a multiple of the cube fractal) with an FP16 result whose operands overflow L0A
# whole (512 x 100 FP16 boxed: 114,688 bytes of 65,536): AutoTileL1 blocks it, the 4-wide sub-fractal K
# head a matmul of its own, the blocks accumulating in FP32 and each block's store converting to FP16
# (assemble attrs {acc_store}). tests/e2e/errors/untiled_k100_capacity.py is the same program under
# --no-auto-l1.
# expect-json: "PH-L1-001 
# expect-json: "ok":true
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[512, 100], pl.FP16],
       b: pl.Tensor[[100, 16], pl.FP16],
       c: pl.Out[pl.Tensor[[512, 16], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP16)
    return c
