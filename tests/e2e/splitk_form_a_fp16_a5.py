# Issue 6 item 5 (walkthrough rung 2, form A): four pl.parallel regions add their K slice into one
# pl.InOut tensor with an atomic assemble; each task declares c inout, so the TensorMap chains them.
# expect-json: "tasks":4,"edges":3
# (variant: --target a5)
# args: --target a5
import pypto.language as pl

@pl.jit
def splitk(a: pl.Tensor[[128, 2048], pl.FP16],
           b: pl.Tensor[[2048, 128], pl.FP16],
           c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]):
    for ks in pl.parallel(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="split_k"):
            k0 = ks * 512
            p = pl.matmul(a[:, k0:k0 + 512], b[k0:k0 + 512, :], out_dtype=pl.FP32)
            c = pl.assemble(c, p, [0, 0], atomic=pl.AtomicType.Add)
    return c
