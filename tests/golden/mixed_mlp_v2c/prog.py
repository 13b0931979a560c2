# A fused MLP block in one region: h = x @ w1 on the cube, GELU on the vector cores, then
# out = gelu(h) @ w2 on the cube again. The activation crosses twice: cube -> vector (the FP32
# accumulator, split by rows between the two vector cores) and vector -> cube (the FP16 activation,
# both halves gathered into the cube's L1), all on-chip or through the cluster's ring instead of a
# round trip through a tensor and a second task.
import pypto.language as pl


@pl.jit
def fused_mlp(x: pl.Tensor[[64, 128], pl.FP16], w1: pl.Tensor[[128, 256], pl.FP16],
              w2: pl.Tensor[[256, 128], pl.FP16], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mlp"):
        h = pl.matmul(x, w1, out_dtype=pl.FP32)
        sig = pl.recip(pl.adds(pl.exp(pl.muls(h, -1.702)), 1.0))
        g = pl.cast(pl.mul(h, sig), pl.FP16)
        out[:] = pl.matmul(g, w2, out_dtype=pl.FP32)
    return out
