# AutoSplitCores limited by --cores 4: c = a^T @ b (a: k x m) with 512 x 512 x 128 FP16 splits into
# 4 blocks (the cost model's grid within 4 cores); block i reads a band of COLUMNS of a (a_trans).
# args: --cores 4
# expect-json: "tasks":1,"edges":0
# expect-json: "block_num":4
# expect-json: split across 4 of 4 cube cores
# expect-json: "races":0
import pypto.language as pl


@pl.jit
def mm_at(a: pl.Tensor[[128, 512], pl.FP16], b: pl.Tensor[[128, 512], pl.FP16],
          c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gemm_at"):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.FP32)
    return c
