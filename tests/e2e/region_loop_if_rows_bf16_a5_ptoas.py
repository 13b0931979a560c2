# Issue 6 item 2: a loop inside pl.at with if/else on the loop index writing row blocks of an Out
# tensor (BF16 operands, odd N); rows of the last block come from a different operand slice.
# (variant: --target a5 --memory-planner ptoas)
# args: --target a5 --memory-planner ptoas
import pypto.language as pl

@pl.jit
def rows_if(a: pl.Tensor[[96, 48], pl.BF16],
            b: pl.Tensor[[48, 40], pl.BF16],
            c: pl.Out[pl.Tensor[[96, 40], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.range(3):
            if i < 2:
                c[i * 32:i * 32 + 32, :] = pl.matmul(a[i * 32:i * 32 + 32, :], b, out_dtype=pl.FP32)
            else:
                c[64:96, :] = pl.matmul(a[64:96, :], b, out_dtype=pl.FP32)
    return c
