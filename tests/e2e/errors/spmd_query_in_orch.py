# expect: spmd_query_in_orch.py:7:5: error: pl.tile.get_block_idx() outside a kernel: the orchestration runs once, not p
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[256, 128], pl.FP32],
      y: pl.Out[pl.Tensor[[256, 128], pl.FP32]]):
    i = pl.tile.get_block_idx()
    with pl.at(level=pl.Level.CORE_GROUP):
        y[0:128, :] = pl.exp(x[i:i + 128, :])
    return y
