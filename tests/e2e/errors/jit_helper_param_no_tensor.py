# A helper's unshaped parameter whose first call passes no tensor.
# args: --arg a=64x64:fp32 --arg c=64x64:fp32
# expect: parameter 'src' of helper 'plus' is an unshaped pl.Tensor, but its first call (line 18) passes no tensor for it
import pypto.language as pl


@pl.jit.incore
def plus(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    t = pl.load(dst, [0, 0], [64, 64])
    pl.store(pl.add(t, 1.0), [0, 0], dst)
    return dst


@pl.jit
def entry(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.load(a, [0, 0], [64, 64]), [0, 0], c)
    c = plus(3, c)
    return c
