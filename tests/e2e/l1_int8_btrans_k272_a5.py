# Issue 11, found by a random sweep: INT8 with a transposed right operand steps K by its 32-row boxes, so
# K = 272 (a multiple of 16, not of 32) leaves the matmul untiled in AutoTileMatmulL0, and its 382-row left
# operand overflows L0A whole (110,592 of 65,536 bytes) although both operands fit Mat. AutoTileL1
# counted K as whole fractals and left it: a Left capacity error. Now it blocks it, the 16-wide K head a
# matmul of its own. Exact against the interpreter (INT32).
# args: --target a5 --cores 1
# expect-json: "PH-L1-001 
# expect-json: "max_abs_err":0,
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[382, 272], pl.INT8], b: pl.Tensor[[168, 272], pl.INT8], c: pl.Out[pl.Tensor[[382, 168], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, b_trans=True, out_dtype=pl.INT32)
    return c
