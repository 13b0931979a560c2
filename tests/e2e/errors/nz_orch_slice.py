# A slice of an NZ tensor in the orchestration would be a row-major window of NZ bytes.
# expect: nz_orch_slice.py:10:15: error: slice of NZ tensor 'b' ([512, 128] FP16) outside pl.at
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 512], pl.FP16],
       b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    for k0 in pl.range(0, 512, 256):
        bk = b[k0:k0 + 256, :]
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.matmul(a[:, k0:k0 + 256], bk, out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
