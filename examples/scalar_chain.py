# A chain of tensor-and-scalar ops: y = min(max(((x + 1.5) * 2 - 0.5) / 4, -1), 3). Each pl.add /
# pl.mul / pl.sub / pl.div / pl.maximum / pl.minimum with a number becomes the scalar form of the
# instruction (adds, muls, ...).
import pypto.language as pl


@pl.jit
def scalar_chain(x: pl.Tensor[[64, 32], pl.FP32], y: pl.Out[pl.Tensor[[64, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.div(pl.sub(pl.mul(pl.add(x, 1.5), 2.0), 0.5), 4.0)
        y[:] = pl.minimum(pl.maximum(t, -1.0), 3.0)
    return y
