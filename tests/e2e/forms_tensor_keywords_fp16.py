# Issue 9 (language.md §2): tensor-level call forms: pl.tensor.dim by keyword, create_tensor with the
# dtype by position, pl.slice / pl.tensor.slice (shape before offset) by position and keyword, matmul
# out_dtype by position and keyword, matmul_acc with keyword operands, cast mode=, assemble by keyword.
import pypto.language as pl

@pl.jit
def f(x: pl.Tensor[[64, 128], pl.FP16], w: pl.Tensor[[128, 64], pl.FP16],
      y: pl.Out[pl.Tensor[[64, 64], pl.FP32]], z: pl.Out[pl.Tensor[[64, 128], pl.FP16]]):
    n = pl.tensor.dim(x, 0)
    k = pl.tensor.dim(tensor=w, axis=1)
    acc = pl.create_tensor([64, 64], pl.FP32)
    with pl.at(level=pl.Level.CORE_GROUP):
        xa = pl.slice(x, shape=[64, 64], offset=[0, 0])
        xb = pl.tensor.slice(x, [64, 64], [0, 64])
        wa = pl.slice(w, [64, 64], offset=[0, 0])
        wb = pl.slice(input=w, shape=[64, 64], offset=[64, 0])
        p0 = pl.matmul(xa, wa, pl.FP32)
        p1 = pl.matmul_acc(p0, lhs=xb, rhs=wb)
        y = pl.assemble(y, p1, [0, 0])
    with pl.at(level=pl.Level.CORE_GROUP):
        e = pl.exp(pl.cast(x, target_type=pl.FP32, mode="round"))
        z = pl.assemble(target=z, source=pl.cast(e, pl.FP16), offset=[0, 0])
    return y, z
