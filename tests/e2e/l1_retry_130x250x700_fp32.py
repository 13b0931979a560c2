# AutoTileL1's first blocking of this FP32 matmul (80 x 128 blocks, K chunks of 64 after a 12-element
# sub-fractal head) does not allocate: the L0B tiles of its ragged blocks add up to 90,112 bytes of
# 65,536. The driver compiles it again with AutoTileL1 planning for 7/8 of the buffers, and says so
# (PH-L1-003). Must match the interpreter, race-free.
# expect-json: "PH-L1-003
# expect-json: blocked again within 7/8 of the buffers
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[130, 700], pl.FP32],
       b: pl.Tensor[[700, 250], pl.FP32],
       c: pl.Out[pl.Tensor[[130, 250], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
