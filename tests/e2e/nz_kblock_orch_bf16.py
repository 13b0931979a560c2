# pl.NZ weights sliced by a K loop in the orchestration: each task loads the window
# b[k0:k0 + 64, :] (k0 a scalar kernel argument, so the blocked offsets keep k0 % 16, checked at run
# time) and accumulates atomically. BF16: c0 = 16, b [256, 96] -> [1, 6, 16, 16, 16].
import pypto.language as pl


@pl.jit
def nz_kblock(a: pl.Tensor[[64, 256], pl.BF16],
              b: pl.Tensor[[256, 96], pl.BF16, pl.NZ],
              c: pl.Out[pl.Tensor[[64, 96], pl.FP32]]):
    for k0 in pl.range(0, 256, 64):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.matmul(a[:, k0:k0 + 64], b[k0:k0 + 64, :], out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
