# A shaped parameter bound to another shape is an error at the parameter.
# args: --arg src=32x64:fp32
# expect: jit_bound_shape_mismatch.py:9:10: error: parameter 'src' is declared pl.Tensor[[64, 64], pl.FP32] but is bound to a tensor [32, 64] of FP32 on the command line
import pypto.language as pl


@pl.jit
def copy(
         src: pl.Tensor[[64, 64], pl.FP32], dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.load(src, [0, 0], [64, 64]), [0, 0], dst)
    return dst
