# A run-time window offset (k0 = 8 on the second task) that is not a multiple of 16: the simulator stops at the load.
# expect: nz_window_runtime_misaligned.py:11:13: error: simulator: tload window of NZ parameter b at blocked offsets (0, 0, 0, 8, 0) is not whole fractals
import pypto.language as pl

@pl.jit
def mm(a: pl.Tensor[[128, 512], pl.FP16],
       b: pl.Tensor[[512, 128], pl.FP16, pl.NZ],
       c: pl.Out[pl.Tensor[[128, 128], pl.FP32]]):
    for k0 in pl.range(0, 64, 8):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.matmul(a[:, k0:k0 + 16], b[k0:k0 + 16, :], out_dtype=pl.FP32)
            c = pl.assemble(c, t, [0, 0], atomic=pl.AtomicType.Add)
    return c
