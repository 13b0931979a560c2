# BlockNzTensorViews on a K-blocked matmul whose right operand is pl.NZ: the InCore parameter b
# becomes the blocked [1, 8, 32, 16, 16] and each K block's window b[k0:k0 + 256, :] a load at
# blocked offsets [0, 0, k0 // 16, 0, 0] (k0 is a multiple of 256, so no remainder offsets).
import pypto.language as pl


@pl.jit
def matmul_nz_kblock(a: pl.Tensor[[128, 512], pl.FP16],
                     b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
                     c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for k0 in pl.range(0, 512, 256):
            t = pl.matmul(a[:, k0:k0 + 256], b[k0:k0 + 256, :], out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
