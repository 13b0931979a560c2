# pl.spmd sized to the device: pl.system.available_aiv_count() is 48 on a2a3 (72 on a5), a
# compile-time constant, so each block takes a static 2880 // 48 = 60 rows.
# expect-json: "block_num":48
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
