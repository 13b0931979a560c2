# A value bound to a tensor parameter, and a float bound to an integer scalar, are errors.
# args: --arg src=64 --arg dst=64x64:fp32
# expect: parameter 'src' is a tensor but is bound to the integer 64 on the command line; bind a shape such as src=128x128:fp32
import pypto.language as pl


@pl.jit
def copy(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.load(src, [0, 0], [64, 64]), [0, 0], dst)
    return dst
