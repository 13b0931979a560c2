# A transposed INT8 left operand is boxed in 32-row boxes along M; with M = 237 the M tail block is not
# whole boxes. AutoTileL1 blocks this overflowing matmul with M blocks of whole boxes and pads the tail's
# Mat tile to them, as a whole matmul's is (until 2026-12-01 it was left untiled: PH-L1-002 and a Mat
# capacity error). Exact against the interpreter (INT32).
# args: --cores 1
# expect-json: "PH-L1-001 
# expect-json: "max_abs_err":0,
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[1424, 237], pl.INT8],
       b: pl.Tensor[[1424, 507], pl.INT8],
       c: pl.Out[pl.Tensor[[237, 507], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        c[:] = pl.matmul(a, b, a_trans=True, out_dtype=pl.INT32)
    return c
