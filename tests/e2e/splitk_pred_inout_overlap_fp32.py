# A split-K chain over L0C that reads its operands from the tensor it stores into (an InOut): M/N-tiling it would
# reload, for a later sub-tile, what an earlier sub-tile already stored, so AutoTileMatmulL0 declines (PH-AT-006)
# and the chain runs as written (found by progfuzz: the tiled chain gave a wrong answer).
# args: --target a5
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, z: pl.InOut[pl.Tensor[[320, 256], pl.FP32]]) -> pl.Tensor[[320, 256], pl.FP32]:
        acc0 = pl.tile.create([320, 128], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        for kb, (acc,) in pl.pipeline(0, 2, init_values=(acc0,), stage=2):
            ta = pl.load(z, [0, kb * 32], [320, 32], target_memory=pl.Mem.Mat)
            tb = pl.load(z, [kb * 32, 0], [32, 128], target_memory=pl.Mem.Mat)
            acc2 = pl.tile.matmul_acc(acc, ta, tb, kb == 0)
            acc = pl.yield_(acc2)
        z2 = pl.store(acc, [0, 0], z)
        return z2

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, z: pl.InOut[pl.Tensor[[320, 256], pl.FP32]]) -> pl.Tensor[[320, 256], pl.FP32]:
        z = self.k(z)
        return z
