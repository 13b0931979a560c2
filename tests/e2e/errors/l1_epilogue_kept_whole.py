# Issue 11: an overflowing matmul whose result feeds an epilogue (not stored whole by one c[...] =) is
# kept whole by AutoTileL1 (PH-L1-002 says why), and the Mat capacity error stands.
# expect: PH-L1-002
# expect: is not stored whole by one tensor.assemble
# expect: Mat buffer usage
import pypto.language as pl

@pl.jit
def l1_epilogue(a: pl.Tensor[[128, 4096], pl.FP16], b: pl.Tensor[[4096, 128], pl.FP16],
                c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        c[:] = pl.relu(acc)
    return c
