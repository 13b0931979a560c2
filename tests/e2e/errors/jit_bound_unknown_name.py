# A binding for a name that is not a parameter of the entry lists the parameters.
# args: --arg src=64x64:fp32 --arg dts=64x64:fp32 --arg dst=64x64:fp32
# expect: 'dts' binds no parameter of 'copy' (parameters: src, dst)
import pypto.language as pl


@pl.jit
def copy(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.load(src, [0, 0], [64, 64]), [0, 0], dst)
    return dst
