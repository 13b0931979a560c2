# Mixed region without a split: FP32 operands, one vector core receives the whole result.
import pypto.language as pl


@pl.jit
def mixed(a: pl.Tensor[[32, 48], pl.FP32], b: pl.Tensor[[48, 64], pl.FP32],
          bias: pl.Tensor[[32, 64], pl.FP32], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.NONE)], name_hint="mixed"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        out[:] = pl.mul(pl.add(acc, bias), acc)
    return out
