# AutoSplitCores: a 512 x 512 x 256 matmul with a bias-add and ReLU epilogue in one pl.at region
# becomes SPMD(InCore(blk = tile.get_block_idx(); ...)) of 16 blocks (4 x 4 grid, 128 x 128 each):
# block-index-dependent windows of a (rows), b (columns) and the bias (columns), the store at the
# block's origin, and pl.split(UP_DOWN) for the mixed kernel's two vector cores.
import pypto.language as pl


@pl.jit
def mm_bias_relu(a: pl.Tensor[[512, 256], pl.FP16], b: pl.Tensor[[256, 512], pl.FP16],
                 bias: pl.Tensor[[1, 512], pl.FP32], c: pl.Out[pl.Tensor[[512, 512], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_bias_relu"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        c[:] = pl.relu(pl.add(acc, bias))
    return c
