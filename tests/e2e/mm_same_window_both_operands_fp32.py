# ConvertTensorToTileOps: one window read as both matmul operands. The left operand's bridge load pads
# its rows (M) to 16, the right one's rows are K: the load cache reused the padded left tile for the right
# operand (K = 16 against 1). Found by progfuzz (seed 547, default,+vec).
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[16, 1], pl.FP32], y: pl.Out[pl.Tensor[[1, 1], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        m = pl.matmul(a[0:1, :], a[0:1, :], out_dtype=pl.FP32)
        y = pl.assemble(y, m, [0, 0])
    return y
