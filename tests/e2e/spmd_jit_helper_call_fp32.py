# The dispatch with form in the user form: `with pl.spmd(M // ROWS) as tid` around one call of an
# @pl.jit.incore helper that reads its block index; core_num is an integer expression of module
# constants; the next region waits for the launch through deps=[tid].
# expect-json: "kernel":"row_exp","core":"aiv","block_num":4
# expect-json: "tasks":2,"edges":1
# expect-json: "races":0
import pypto.language as pl

M = 128
ROWS = 32

@pl.jit.incore
def row_exp(x: pl.Tensor[[128, 64], pl.FP32], y: pl.Out[pl.Tensor[[128, 64], pl.FP32]]):
    i = pl.tile.get_block_idx()
    t = pl.load(x, [i * ROWS, 0], [ROWS, 64])
    pl.store(pl.exp(t), [i * ROWS, 0], y)
    return y

@pl.jit
def f(x: pl.Tensor[[128, 64], pl.FP32], y: pl.Out[pl.Tensor[[128, 64], pl.FP32]],
      z: pl.Out[pl.Tensor[[32, 64], pl.FP32]]):
    with pl.spmd(M // ROWS) as tid:
        y = row_exp(x, y)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="tail", deps=[tid]):
        z[:] = pl.mul(y[96:128, :], 2.0)
    return y, z
