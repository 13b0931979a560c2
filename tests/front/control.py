# pypto.program: control
import pypto.language as pl


@pl.program
class control:
    @pl.function(type=pl.FunctionType.Opaque)
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for (x, y) in pl.while_(init_values=(0, n)):
            pl.cond(x < y)
            x1: pl.Scalar[pl.INDEX] = x + 1
            xo, yo = pl.yield_(x1, y)
        while xo > 0:
            z: pl.Scalar[pl.INDEX] = -(5)
        k: pl.Scalar[pl.INDEX] = (-5) ** 2 + 2 ** -1 + (xo - (1 - 2)) - ~xo
        b: pl.Scalar[pl.BOOL] = (k == 1) == (k < 2)
        c: pl.Scalar[pl.FP32] = pl.cast(k, pl.FP32) / 3.0
        if b:
            r: pl.Scalar[pl.INDEX] = pl.yield_(k)
        else:
            if k > 1:
                r: pl.Scalar[pl.INDEX] = pl.yield_(1)
            else:
                r: pl.Scalar[pl.INDEX] = pl.yield_(2)
            r: pl.Scalar[pl.INDEX] = pl.yield_(r)
        return r
