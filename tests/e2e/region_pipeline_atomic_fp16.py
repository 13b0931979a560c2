# Issue 6 item 2: the docs/dsl.md example — pl.pipeline over K chunks inside pl.at, each chunk's
# product added into c with an atomic pl.assemble (c is read-modify-written: InOut in the kernel).
import pypto.language as pl

K = 1024
KS = 256

@pl.jit
def matmul(a: pl.Tensor[[128, K], pl.FP16],
           b: pl.Tensor[[K, 128], pl.FP16],
           c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="mm_kernel"):
        for k0 in pl.pipeline(0, K, KS, stage=2):
            t = pl.matmul(a[:, k0:k0 + KS], b[k0:k0 + KS, :], out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
