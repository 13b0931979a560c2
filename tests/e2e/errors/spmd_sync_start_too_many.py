# expect: REQUIRE_SYNC_START_INVALID
# expect: pl.spmd(64, sync_start=True) launching 'rows': the 64 blocks must start together, but a2a3 has only 48 AIV cores
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[2048, 32], pl.FP32],
      y: pl.Out[pl.Tensor[[2048, 32], pl.FP32]]):
    for i in pl.spmd(64, name_hint="rows", sync_start=True):
        t = pl.load(x, [i * 32, 0], [32, 32])
        pl.store(pl.exp(t), [i * 32, 0], y)
    return y
