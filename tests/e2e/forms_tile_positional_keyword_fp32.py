# Issue 9 (language.md §2): tile-level call forms by position and by keyword: load with None for
# valid_shape and the space by position, pl.tile.load all-keyword, pl.move with the space by position
# (pl.MemorySpace spelling), tile.slice / cast / full / create_tile / row_sum(tmp_tile=) keywords.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def mm(self, x: pl.Tensor[[64, 64], pl.FP32], w: pl.Tensor[[64, 64], pl.FP32],
           y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        a = pl.load(x, [0, 0], [64, 64], None, pl.MemorySpace.Mat, False)
        b = pl.tile.load(tensor=w, offsets=[0, 0], shapes=[64, 64], target_memory=pl.Mem.Mat)
        la = pl.move(a, pl.MemorySpace.Left)
        rb = pl.tile.move(b, target_memory=pl.MemorySpace.Right)
        c = pl.matmul(la, rb)
        pl.store(c, [0, 0], y, [64, 64])
        return y

    @pl.function(type=pl.FunctionType.InCore)
    def vec(self, y: pl.Tensor[[64, 64], pl.FP32], z: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        v: pl.Tile[[64, 64], pl.FP32] = pl.load(y, [0, 0], [64, 64])
        s = pl.tile.slice(v, shape=[32, 64], offset=[0, 0])
        h = pl.cast(s, pl.FP16, "round")
        f = pl.cast(input=h, target_type=pl.FP32)
        pl.store(f, [0, 0], z, [32, 64])
        t = pl.create_tile([32, 64], pl.FP32, pl.MemorySpace.Vec)
        q = pl.full([32, 64], pl.FP32, 1.5)
        q2 = pl.tile.full(shape=[32, 64], dtype=pl.FP32, value=2.0)
        r = pl.row_sum(pl.add(q, q2), tmp_tile=t)
        pl.store(pl.row_expand_add(q, r), offsets=[32, 0], output_tensor=z)
        return z

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64, 64], pl.FP32], w: pl.Tensor[[64, 64], pl.FP32],
             z: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        y = pl.create_tensor([64, 64], dtype=pl.FP32)
        y = self.mm(x, w, y)
        z = self.vec(y, z)
        return z
