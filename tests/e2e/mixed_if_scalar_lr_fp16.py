# args: --arg n=3
# A mixed region with an if on a scalar parameter: the if is shared control flow, kept on both cores.
import pypto.language as pl

@pl.jit
def cond(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], n: pl.Scalar[pl.INDEX],
         y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT)]):
        s = pl.matmul(a, b, out_dtype=pl.FP32)
        if n > 2:
            y[:] = pl.exp(pl.muls(s, 0.01))
        else:
            y[:] = pl.relu(s)
    return y
