# @pl.jit.incore and @pl.jit.inline helpers called by bare name; their unshaped parameters are bound
# from the first call (a caller parameter, a pl.create_tensor local, a helper's Out result)
# args: --arg a=128x128:fp32 --arg c=128x128:fp32
import pypto.language as pl


@pl.jit.incore
def plus_one(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    t = pl.load(src, [0, 0], [128, 128])
    pl.store(pl.add(t, 1.0), [0, 0], dst)
    return dst


@pl.jit.inline
def doubled(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="double"):
        t = pl.load(src, [0, 0], [128, 128])
        pl.store(pl.mul(t, 2.0), [0, 0], dst)
    return dst


@pl.jit
def entry(a: pl.Tensor, c: pl.Out[pl.Tensor]):
    tmp = pl.create_tensor([128, 128], dtype=pl.FP32)
    tmp = plus_one(a, tmp)
    c = doubled(dst=c, src=tmp)
    return c
