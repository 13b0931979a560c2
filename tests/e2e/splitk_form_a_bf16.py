# Issue 6 item 5: form A with BF16 operands, odd N and an Out accumulator: three pl.parallel regions
# atomically add into c; the atomic add reads c, so each task declares it inout and they chain.
# expect-json: "tasks":3,"edges":2
import pypto.language as pl

@pl.jit
def splitk3(a: pl.Tensor[[32, 192], pl.BF16],
            b: pl.Tensor[[192, 48], pl.BF16],
            c: pl.Out[pl.Tensor[[32, 48], pl.FP32]]):
    for ks in pl.parallel(3):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="split_k"):
            k0 = ks * 64
            p = pl.matmul(a[:, k0:k0 + 64], b[k0:k0 + 64, :], out_dtype=pl.FP32)
            c = pl.assemble(c, p, [0, 0], atomic=pl.AtomicType.Add)
    return c
