# BlockNzTensorViews on a K-blocked matmul whose right operand is pl.NZ (walkthrough rung 4 with K
# blocked by hand): the InCore parameter b becomes the blocked [1, 8, 32, 16, 16] and the windows
# b[0:256, :] and b[256:512, :] loads at blocked offsets [0, 0, 0, 0, 0] and [0, 0, 16, 0, 0].
import pypto.language as pl


@pl.jit
def matmul_nz_kblock(a: pl.Tensor[[128, 512], pl.FP16],
                     b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
                     c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t0 = pl.matmul(a[:, 0:256], b[0:256, :], out_dtype=pl.FP32)
        c = pl.assemble(c, t0, [0, 0], atomic=pl.AtomicType.Add)
        t1 = pl.matmul(a[:, 256:512], b[256:512, :], out_dtype=pl.FP32)
        c = pl.assemble(c, t1, [0, 0], atomic=pl.AtomicType.Add)
    return c
