# AutoSplitCores on a5 (36 cube cores) for c = a @ b^T, the reference GEMM's layout (a: m x k,
# b: n x k, both ND): the B window of block i is a band of ROWS of b. 768 x 768 x 128 FP16 -> FP32
# splits into a 6 x 6 grid of 128 x 128 blocks, one SPMD task, correct against the interpreter.
# args: --target a5
# expect-json: "tasks":1,"edges":0
# expect-json: "block_num":36
# expect-json: PH-SC-001
# expect-json: "races":0
import pypto.language as pl


@pl.jit
def mm_bt(a: pl.Tensor[[768, 128], pl.FP16], b: pl.Tensor[[768, 128], pl.FP16],
          c: pl.Out[pl.Tensor[[768, 768], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gemm_bt"):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.FP32)
    return c
