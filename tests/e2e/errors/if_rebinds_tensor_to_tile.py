# The if form of loop_rebinds_tensor_to_tile.py: one branch rebinds the Out tensor to a matmul
# result, so the merged name is a tensor on one path and an on-chip tile on the other.
# expect: if_rebinds_tensor_to_tile.py:13:13: error: 't' is a tensor before this if and an on-chip matmul result inside it
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 64], pl.BF16],
      b: pl.Tensor[[64, 48], pl.BF16],
      n: pl.Scalar[pl.INDEX],
      t: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        if n > 2:
            t = pl.matmul(a, b, out_dtype=pl.FP32)
    return t
