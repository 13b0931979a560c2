# Split-K as the blocks of one SPMD task (examples/splitk_spmd.py) on a5, written with the with form
# and a sole pl.at region as the kernel: zero_init -> split_k (4 blocks adding atomically into c).
# args: --target a5
# expect-json: "tasks":2,"edges":1
# expect-json: "kernel":"split_k","core":"aic","block_num":4
# expect-json: "races":0
import pypto.language as pl

@pl.jit
def splitk(a: pl.Tensor[[64, 1024], pl.BF16],
           b: pl.Tensor[[1024, 64], pl.BF16],
           c: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="zero_init"):
        c[:] = pl.full([64, 64], dtype=pl.FP32, value=0.0)
    with pl.spmd(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="split_k"):
            ks = pl.tile.get_block_idx()
            k0 = ks * 256
            p = pl.matmul(a[:, k0:k0 + 256], b[k0:k0 + 256, :], out_dtype=pl.FP32)
            c = pl.assemble(c, p, [0, 0], atomic=pl.AtomicType.Add)
    return c
