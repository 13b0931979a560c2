# args: --target a5
# examples/mm_bias_relu_mixed.py on a5 (cross-core data on-chip, into the consumer's buffer).
# matmul + bias + activation in ONE pl.at region (a mixed kernel). The cube computes a @ b into
# its accumulator; ExpandMixedKernel splits the region into an AIC kernel and two AIV kernels (one per
# vector core of the cluster): the AIC pushes the top half of the result to AIV 0 and the bottom half
# to AIV 1 (pl.split UP_DOWN) through the cross-core ring, and each vector core adds its half of the
# bias, applies the ReLU and stores its rows. Compare with examples/matmul_softmax.py, which keeps
# the two halves of the work in separate regions that meet in global memory.
import pypto.language as pl


@pl.jit
def mm_bias_relu(a: pl.Tensor[[128, 256], pl.FP16], b: pl.Tensor[[256, 128], pl.FP16],
                 bias: pl.Tensor[[128, 128], pl.FP32], out: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)], name_hint="mm_bias_relu"):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)      # cube (AIC)
        out[:] = pl.relu(pl.add(acc, bias))           # vector (AIV 0 and AIV 1, 64 rows each)
    return out
