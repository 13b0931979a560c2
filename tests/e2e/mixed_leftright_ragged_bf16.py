# Mixed region, LEFT_RIGHT split of 72 columns (36 + 36), BF16 operands, an exp epilogue.
import pypto.language as pl


@pl.jit
def mixed(a: pl.Tensor[[40, 64], pl.BF16], b: pl.Tensor[[64, 72], pl.BF16],
          bias: pl.Tensor[[40, 72], pl.FP32], out: pl.Out[pl.Tensor[[40, 72], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT)], name_hint="mixed"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        out[:] = pl.exp(pl.sub(acc, bias))
    return out
