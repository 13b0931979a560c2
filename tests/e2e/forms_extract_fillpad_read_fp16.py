# Issue 9 (language.md §2): tile.extract by position and all-keyword, store atomic=pl.AtomicType.None_,
# load valid_shape=, fillpad with the pad value by position, set_validshape, pl.read on a tile,
# create_tensor(..., layout=pl.ND).
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def mm(self, x: pl.Tensor[[64, 64], pl.FP16], w: pl.Tensor[[64, 32], pl.FP16],
           y: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        a = pl.load(x, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        b = pl.load(w, [0, 0], [64, 32], target_memory=pl.MemorySpace.Mat)
        la = pl.tile.extract(a, 32, 0, [32, 64], target_memory=pl.MemorySpace.Left)
        rb = pl.tile.extract(src=b, index_row=0, index_col=0, shape=[64, 32], target_memory=pl.Mem.Right)
        c = pl.matmul(la, rb)
        pl.store(c, [0, 0], y, atomic=pl.AtomicType.None_)
        return y

    @pl.function(type=pl.FunctionType.InCore)
    def vec(self, y: pl.Tensor[[32, 32], pl.FP32], z: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(y, [0, 0], [32, 32], valid_shape=[32, 24])
        f = pl.fillpad(t, pl.PadValue.zero)
        v = pl.set_validshape(f, 32, 32)
        s = pl.read(v, [1, 2])
        pl.store(pl.adds(v, s), [0, 0], z)
        return z

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP16], w: pl.Tensor[[64, 32], pl.FP16],
             z: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        y = pl.create_tensor([32, 32], dtype=pl.FP32, layout=pl.ND)
        y = self.mm(x, w, y)
        z = self.vec(y, z)
        return z
