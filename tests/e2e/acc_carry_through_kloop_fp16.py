# A loop carrying a matmul result whose new value comes out of a K-tiled matmul (a nested K loop):
# MaterializeSemanticAliases used to keep the carried accumulator and the new value in two Acc buffers
# without a word, so the second iteration read the first one's value (wrong results). The new value
# is computed after the last read of the carried one, so both live in one buffer.
import pypto.language as pl


@pl.jit
def carry(a: pl.Tensor[[64, 512], pl.FP16], b: pl.Tensor[[512, 256], pl.FP16],
          out: pl.Out[pl.Tensor[[192, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        s0 = pl.matmul(a, b[:, 0:64], out_dtype=pl.FP32)
        for j, (s,) in pl.range(0, 3, 1, init_values=(s0,)):
            out = pl.assemble(out, s, [j * 64, 0])
            k0 = j * 64 + 64
            sn = pl.matmul(a, b[:, k0:k0 + 64], out_dtype=pl.FP32)
            s2 = pl.yield_(sn)
    return out
