# inline helper called twice on slice views (bound from the first call), assigning its Out
# parameter by name; an incore helper whose Out result feeds an inline helper that calls another
# args: --arg x=256x64:fp32 --arg y=256x64:fp32
import pypto.language as pl


@pl.jit.inline
def shift(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    R, C = src.shape
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(src, [0, 0], [R, C])
        dst = pl.store(pl.add(t, 3.0), [0, 0], dst)
    return dst


@pl.jit.incore
def square(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    t = pl.load(src, [0, 0], [128, 64])
    pl.store(pl.mul(t, t), [0, 0], dst)
    return dst


@pl.jit.inline
def square_then_shift(src: pl.Tensor, dst: pl.Out[pl.Tensor]):
    tmp = pl.create_tensor([128, 64], dtype=pl.FP32)
    tmp = square(src, tmp)
    dst = shift(tmp, dst)
    return dst


@pl.jit
def twice(x: pl.Tensor, y: pl.Out[pl.Tensor]):
    top = pl.create_tensor([128, 64], dtype=pl.FP32)
    top = square_then_shift(x[0:128, :], top)
    bottom = pl.create_tensor([128, 64], dtype=pl.FP32)
    bottom = shift(x[128:256, :], bottom)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="gather"):
        pl.store(pl.load(top, [0, 0], [128, 64]), [0, 0], y)
        pl.store(pl.load(bottom, [0, 0], [128, 64]), [128, 0], y)
    return y
