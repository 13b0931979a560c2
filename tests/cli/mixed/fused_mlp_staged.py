# examples/fused_mlp.py written as three regions that meet in GM: matmul, activation, matmul.
import pypto.language as pl


@pl.jit
def staged_mlp(x: pl.Tensor[[64, 128], pl.FP16], w1: pl.Tensor[[128, 256], pl.FP16],
               w2: pl.Tensor[[256, 128], pl.FP16], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="up"):
        h = pl.matmul(x, w1, out_dtype=pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="act"):
        sig = pl.recip(pl.adds(pl.exp(pl.muls(h, -1.702)), 1.0))
        g = pl.cast(pl.mul(h, sig), pl.FP16)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="down"):
        out[:] = pl.matmul(g, w2, out_dtype=pl.FP32)
    return out
