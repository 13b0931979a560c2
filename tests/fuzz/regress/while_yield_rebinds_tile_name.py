# A while loop's yield target named like a tile variable before the loop (Python rebinding): the
# return var kept the tile type and had no MemRef (an internal verification error; make fuzz-parse).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def rows(self, b: pl.Tensor[[32, 48], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        yo = pl.load(b, [0, 0], [32, 48], target_memory=pl.Mem.Vec)
        for (x, y) in pl.while_(init_values=(0, n)):
            pl.cond(x < y)
            x1: pl.Scalar[pl.INDEX] = x + 1
            xo, yo = pl.yield_(x1, y)
        return xo
