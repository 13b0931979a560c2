# Mixed region, UP_DOWN split of 33 rows: lane 0 gets 17, lane 1 16 (ragged).
import pypto.language as pl


@pl.jit
def mixed(a: pl.Tensor[[33, 64], pl.FP16], b: pl.Tensor[[64, 80], pl.FP16],
          bias: pl.Tensor[[33, 80], pl.FP32], out: pl.Out[pl.Tensor[[33, 80], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mixed"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        out[:] = pl.relu(pl.add(acc, bias))
    return out
