# progfuzz seed 42 (minimised): an atomic pl.assemble into a window of an InOut tensor that is also
# an operand; the matmul needs an N grid, and each grid store must add (atomic=Add kept).
import pypto.language as pl

@pl.jit
def acc_grid_window(z: pl.InOut[pl.Tensor[[144, 800], pl.FP32]],
                    a: pl.Tensor[[128, 144], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP):
        m = pl.matmul(a, z[:, 0:768], out_dtype=pl.FP32)
        z = pl.assemble(z, m, [16, 16], atomic=pl.AtomicType.Add)
    return z
