# A mixed region whose cube result is both stored and sent to the vector cores, and whose vector result is both
# stored and sent back to the cube (one-slot ring).
import pypto.language as pl

@pl.jit
def both(a: pl.Tensor[[64, 64], pl.FP16], b: pl.Tensor[[64, 64], pl.FP16], w: pl.Tensor[[64, 32], pl.FP16],
         s_out: pl.Out[pl.Tensor[[64, 64], pl.FP32]], g_out: pl.Out[pl.Tensor[[64, 64], pl.FP16]],
         y: pl.Out[pl.Tensor[[64, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=1)]):
        s = pl.matmul(a, b, out_dtype=pl.FP32)
        s_out[:] = s
        g = pl.cast(pl.relu(s), pl.FP16)
        g_out[:] = g
        y[:] = pl.matmul(g, w, out_dtype=pl.FP32)
    return s_out, g_out, y
