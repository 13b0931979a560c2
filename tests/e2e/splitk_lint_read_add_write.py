# The split-K lint (PH-SC-003) on rung 2 form A written as c = c + p (no atomic): each region reads
# c, adds its K slice's product and stores it back, so the runtime chains the four tasks. The hint
# names the read-add-write and the pl.spmd form; the program still runs as written.
# expect-json: PH-SC-003
# expect-json: a read-add-write (c = c + p)
# expect-json: for ks in pl.spmd(4):
# expect-json: "races":0
import pypto.language as pl


@pl.jit
def splitk_add(a: pl.Tensor[[64, 512], pl.FP16], b: pl.Tensor[[512, 64], pl.FP16],
               c: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]):
    for ks in pl.range(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="k_slice"):
            k0 = ks * 128
            p = pl.matmul(a[:, k0:k0 + 128], b[k0:k0 + 128, :], out_dtype=pl.FP32)
            c[:] = pl.add(c, p)
    return c
