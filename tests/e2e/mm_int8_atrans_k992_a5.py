# An INT8 A^T on a5 whose L0 K step was not a whole 32-column box: AutoTileMatmulL0 picked k = 336 for
# [96, 992] (two Left buffers of 96 x 336 counted, 96 x 352 allocated: 67,584 bytes > 64 KiB, a
# capacity error on a program that fits). Its K now steps by whole boxes (found by the uneven-split
# sweep: the 81-row tail task of an 849-row A^T).
# args: --target a5
# expect-json: "K":992,"m":96,"n":80,"k":256
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[992, 81], pl.INT8], b: pl.Tensor[[992, 139], pl.INT8], c: pl.Out[pl.Tensor[[81, 139], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:, :] = pl.matmul(a, b, out_dtype=pl.INT32, a_trans=True)
    return c
