# AutoSplitCores on a2a3: one pl.at region holding a 512 x 512 x 256 matmul with a bias-add (a [1, 512]
# row broadcast) and a ReLU epilogue becomes ONE SPMD task of 16 blocks (a 4 x 4 grid of 128 x 128
# output blocks, each a mixed cube + vector kernel on its own cluster), correct against the interpreter.
# expect-json: "tasks":1,"edges":0
# expect-json: "block_num":16
# expect-json: PH-SC-001
# expect-json: "races":0
import pypto.language as pl


@pl.jit
def mm_bias_relu(a: pl.Tensor[[512, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16],
                 bias: pl.Tensor[[1, 512], pl.FP32], c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_bias_relu"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        c[:] = pl.relu(pl.add(acc, bias))
    return c
