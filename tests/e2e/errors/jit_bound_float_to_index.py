# A float bound to an integer scalar parameter is an error at the parameter.
# args: --arg src=64x64:fp32 --arg dst=64x64:fp32 --arg rows=0.5
# expect: parameter 'rows' is pl.Scalar[pl.INDEX] but is bound to the float 0.5; bind an integer
import pypto.language as pl


@pl.jit
def copy(src: pl.Tensor, dst: pl.Out[pl.Tensor], rows: pl.INDEX):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.load(src, [0, 0], [rows, 64]), [0, 0], dst)
    return dst
