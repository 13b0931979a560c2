# pl.spmd sized to the device on a5: 72 AIV cores, 40 rows each.
# args: --target a5
# expect-json: "block_num":72
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def relu_rows(x: pl.Tensor[[2880, 32], pl.FP32],
              y: pl.Out[pl.Tensor[[2880, 32], pl.FP32]]):
    NB = pl.system.available_aiv_count()
    ROWS = 2880 // NB
    for i in pl.spmd(NB, name_hint="relu_rows"):
        t = pl.load(x, [i * ROWS, 0], [ROWS, 32])
        pl.store(pl.relu(t), [i * ROWS, 0], y)
    return y
