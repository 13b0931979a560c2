# AutoSplitCores on a5 with a full-shape epilogue operand: c = (a @ b) * 0.5 + r, r [512, 768]. Each
# block reads its own [bm, bn] window of r (as of a and b), the epilogue runs split UP_DOWN on the
# cluster's two vector cores; one SPMD task, correct against the interpreter.
# args: --target a5
# expect-json: "tasks":1,"edges":0
# expect-json: "core":"mix","block_num":24
# expect-json: PH-SC-001
# expect-json: "races":0
import pypto.language as pl


@pl.jit
def mm_residual(a: pl.Tensor[[512, 128], pl.FP16], b: pl.Tensor[[128, 768], pl.FP16],
                r: pl.Tensor[[512, 768], pl.FP32], c: pl.Out[pl.Tensor[[512, 768], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_residual"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        c[:] = pl.add(pl.muls(acc, 0.5), r)
    return c
