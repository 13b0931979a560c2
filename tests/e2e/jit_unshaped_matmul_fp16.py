# An explicit Mat -> Left/Right -> matmul kernel over unshaped FP16 operands bound with --arg; the
# result parameter is bound to FP32.
# args: --arg a=64x128:fp16 --arg b=128x64:FP16 --arg c=64x64:fp32
import pypto.language as pl


@pl.jit
def mm(a: pl.Tensor, b: pl.Tensor, c: pl.Out[pl.Tensor]):
    M, K = a.shape
    N = b.shape[1]
    with pl.at(level=pl.Level.CORE_GROUP):
        a_mat = pl.load(a, [0, 0], [M, K], target_memory=pl.MemorySpace.Mat)
        b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
        pl.store(pl.matmul(a_left, b_right), [0, 0], c)
    return c
