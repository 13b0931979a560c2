# The dispatch with form in a program: `with pl.spmd(8): y = self.row_kernel(x, y)` launches the
# InCore function as 8 blocks; the kernel reads its block index.
# expect-json: "tasks":1,"edges":0
# expect-json: "kernel":"row_kernel","core":"aiv","block_num":8
# expect-json: "races":0
import pypto.language as pl

@pl.program
class Rows:
    @pl.function(type=pl.FunctionType.InCore)
    def row_kernel(self, x: pl.Tensor[[128, 64], pl.FP16],
                   y: pl.Out[pl.Tensor[[128, 64], pl.FP16]]) -> pl.Tensor[[128, 64], pl.FP16]:
        i = pl.tile.get_block_idx()
        t = pl.load(x, [i * 16, 0], [16, 64])
        y = pl.store(pl.add(t, t), [i * 16, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[128, 64], pl.FP16],
             y: pl.Out[pl.Tensor[[128, 64], pl.FP16]]) -> pl.Tensor[[128, 64], pl.FP16]:
        with pl.spmd(8):
            y = self.row_kernel(x, y)
        return y
