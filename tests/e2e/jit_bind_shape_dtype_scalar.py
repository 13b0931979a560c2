# x.shape / x.shape[i] / M, N = x.shape / dtype=x.dtype on unshaped parameters bound with --arg
# args: --arg x=128x64:fp32 --arg y=128x64:fp32 --arg scale=0.5 --arg rows=64
import pypto.language as pl


@pl.jit
def scaled_copy(x: pl.Tensor, y: pl.Out[pl.Tensor], scale: pl.FP32, rows: pl.INDEX):
    R, C = x.shape
    tmp = pl.create_tensor(x.shape, dtype=x.dtype)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale"):
        for r in pl.range(0, R, rows):
            t = pl.load(x, [r, 0], [rows, x.shape[1]])
            pl.store(pl.mul(t, scale), [r, 0], tmp)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="copy"):
        for r in pl.range(0, x.shape[0], rows):
            u = pl.load(tmp, [r, 0], [rows, C])
            pl.store(pl.add(u, 1.0), [r, 0], y)
    return y
