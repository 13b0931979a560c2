# Mixed region with an INT8 matmul (INT32 accumulator) and integer vector ops on both lanes.
import pypto.language as pl


@pl.jit
def mixed(a: pl.Tensor[[48, 64], pl.INT8], b: pl.Tensor[[64, 96], pl.INT8],
          bias: pl.Tensor[[48, 96], pl.INT32], out: pl.Out[pl.Tensor[[48, 96], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mixed"):
        acc = pl.matmul(a, b, out_dtype=pl.INT32)
        out[:] = pl.maximum(pl.add(acc, bias), bias)
    return out
