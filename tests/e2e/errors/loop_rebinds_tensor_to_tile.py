# An Out tensor rebound to a matmul result inside a loop of a pl.at region: the name carried around
# the loop is a tensor before it and an on-chip tile inside it (an internal round-trip error; found
# by make fuzz-parse). Assigning rebinds the name, it does not write the tensor.
# expect: loop_rebinds_tensor_to_tile.py:13:13: error: 't' is a tensor before this loop and an on-chip matmul result inside it
import pypto.language as pl

@pl.jit
def f(a: pl.Tensor[[32, 96], pl.FP16],
      b: pl.Tensor[[96, 32], pl.FP16],
      t: pl.Out[pl.Tensor[[32, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for k0 in pl.pipeline(0, 96, 32, stage=2):
            t = pl.matmul(a[:, k0:k0 + 32], b[k0:k0 + 32, :], out_dtype=pl.FP32)
    return t
