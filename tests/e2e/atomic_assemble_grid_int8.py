# progfuzz seed 42 (minimised), INT8: atomic pl.assemble of a gridded matmul keeps atomic=Add.
import pypto.language as pl

@pl.jit
def acc_grid_int8(a: pl.Tensor[[96, 128], pl.INT8],
                  b: pl.Tensor[[128, 640], pl.INT8],
                  c: pl.InOut[pl.Tensor[[96, 640], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        m = pl.matmul(a, b, out_dtype=pl.INT32)
        c = pl.assemble(c, m, [0, 0], atomic=pl.AtomicType.Add)
    return c
