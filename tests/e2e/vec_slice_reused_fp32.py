# One tensor slice read by three vector ops in a loop body: loaded into Vec once per iteration (it was
# loaded three times, overfilling Vec for large blocks: found by the vector program fuzzer).
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.range(4):
            xb = x[i * 16:i * 16 + 16, :]
            e = pl.exp(pl.sub(xb, pl.row_max(xb)))
            y[i * 16:i * 16 + 16, :] = pl.add(e, xb)
    return y
