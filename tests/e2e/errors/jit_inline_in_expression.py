# An inline helper is spliced at a statement: a call inside another expression is refused.
# args: --arg a=64x64:fp32 --arg c=64x64:fp32
# expect: call inline helper 'same' as a statement or as the value of an assignment
import pypto.language as pl


@pl.jit.inline
def same(src: pl.Tensor):
    return src


@pl.jit
def entry(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.load(same(a), [0, 0], [64, 64]), [0, 0], c)
    return c
