# Issue 7: inside pl.at, reads of a GM parameter element, of a tile computed by a vector op and of a slice.
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64, 32], pl.FP32], s: pl.Tensor[[4, 4], pl.INT32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        r = s[1, 2]
        z = pl.exp(x[16:32, :])
        mx = z[2, 3]
        w = pl.mul(z, mx)
        v = x[0:16, :]
        q = v[1, 1]
        y[:] = pl.add(w, q)
    return y
