# AutoTileMatmulL0 existing-pipeline L0C double buffer: a user pl.pipeline(stage=2) of 8 trips, stationary
# Left panel, per-iteration Mat -> Right extract, direct store: two Acc buffers (0 and 64 KiB), the FIXPIPE
# drain of tile i overlapping the MAD of tile i + 1 (tests/cli/test_pipeline_dbc.sh compares the cycles).
# expect-json: "space":"acc","addr":65536
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 1024], pl.FP16],
          c: pl.Out[pl.Tensor[[128, 1024], pl.FP32]]) -> pl.Tensor[[128, 1024], pl.FP32]:
        ta = pl.load(a, [0, 0], [128, 64], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0], [64, 1024], target_memory=pl.Mem.Mat)
        la = pl.tile.extract(ta, 0, 0, [128, 64], target_memory=pl.Mem.Left)
        for j, (cur,) in pl.pipeline(0, 1024, 128, init_values=(c,), stage=2):
            rb = pl.tile.extract(tb, 0, j, [64, 128], target_memory=pl.Mem.Right)
            acc = pl.tile.matmul(la, rb)
            o2 = pl.store(acc, [0, j], cur)
            out = pl.yield_(o2)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[128, 64], pl.FP16], b: pl.Tensor[[64, 1024], pl.FP16],
             c: pl.Out[pl.Tensor[[128, 1024], pl.FP32]]) -> pl.Tensor[[128, 1024], pl.FP32]:
        c = self.k(a, b, c)
        return c
