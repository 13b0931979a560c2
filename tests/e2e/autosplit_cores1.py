# --cores 1 turns AutoSplitCores off: the 512 x 512 x 128 region stays one task of one block (the
# same program splits 16 ways without the option, tests/golden/autosplit_epilogue shows the IR).
# args: --cores 1
# expect-json: "tasks":1,"edges":0
# expect-json: "block_num":1
# expect-json: "races":0
import pypto.language as pl


@pl.jit
def mm_one(a: pl.Tensor[[512, 128], pl.FP16], b: pl.Tensor[[128, 512], pl.FP16],
           c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gemm"):
        c[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return c
