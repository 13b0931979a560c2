l


@pl.program
class conol:
    @pl.function(type=pl.FunctionType.Opaque)
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for (x, y) in pl.while_(init_values=(0,n)):
            pl.cond(x < y)
            x1: pl.Scalar[pl.INDEX] = 1
            xo,o = pl.yield_(1, y)
        wh =1 +  ~x   