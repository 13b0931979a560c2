# Issue 8 odd shapes: INT8 with N = 80 (one Right box of 32 columns is partial: physical 96) and K = 2064, which the
# chooser blocks as k = 208: a pipelined loop of nine blocks and a peeled K tail of 192. INT32 result, exact.
# expect-json: "M":128,"N":80,"K":2064,"m":128,"n":80,"k":208
import pypto.language as pl

@pl.jit
def mm_128x2064x80_int8(a: pl.Tensor[[128, 2064], pl.INT8],
       b: pl.Tensor[[2064, 80], pl.INT8],
       c: pl.Out[pl.Tensor[[128, 80], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, out_dtype=pl.INT32)
    return c
