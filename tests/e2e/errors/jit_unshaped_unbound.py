# An unshaped parameter with no binding names the parameter and every way to give its shape.
# expect: parameter 'src' of 'copy' is an unshaped pl.Tensor and nothing binds its shape
# expect: --arg src=128x128:fp32
# expect: --in src=file.npy
# expect: src: pl.Tensor[[128, 128], pl.FP32]
import pypto.language as pl


@pl.jit
def copy(src: pl.Tensor, dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.load(src, [0, 0], [64, 64]), [0, 0], dst)
    return dst
