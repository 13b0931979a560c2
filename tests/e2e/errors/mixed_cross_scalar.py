# A scalar read on the vector side cannot steer the cube side: only tiles cross between the cores.
# expect: 'x' is computed on the vector side of this mixed cube/vector region and used on the cube side
import pypto.language as pl


@pl.jit
def f(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], w: pl.Tensor[[16, 16], pl.FP32],
      out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.load(w, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
        x = pl.tile.read(t, [0, 0])
        s = pl.matmul(a, b, out_dtype=pl.FP32)
        out[:] = pl.muls(s, 2.0)
        if x > 0.5:
            out[:] = pl.matmul(a, b, out_dtype=pl.FP32)
    return out
