# RotateMixedLoops on a fused MLP accumulated over hidden blocks, split UP_DOWN, FP32 operands and
# odd sizes: `o = o + gelu-ish(x @ w1[:, j]) @ w2[j, :]` — the deferred add's x is the carried value
# itself (a plain sum; the add runs before the next iteration's yield), the up-projection is
# prefetched, and the add's operands are written (pv, o). 5 trips, one not a multiple of the block.
# Must match the interpreter, race-free.
# expect-json: "PH-RM-001 
import pypto.language as pl


@pl.jit
def mlp_rot(x: pl.Tensor[[40, 64], pl.FP32], w1: pl.Tensor[[64, 160], pl.FP32],
            w2: pl.Tensor[[160, 48], pl.FP32], y: pl.Out[pl.Tensor[[40, 48], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP,
               optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=2)], name_hint="mlp"):
        o0 = pl.full([40, 48], dtype=pl.FP32, value=0.0)
        for j, (o,) in pl.range(0, 160, 32, init_values=(o0,)):
            h = pl.matmul(x, w1[:, j:j + 32], out_dtype=pl.FP32)
            g = pl.mul(pl.maximum(h, 0.0), 0.5)
            pv = pl.matmul(g, w2[j:j + 32, :], out_dtype=pl.FP32)
            o1 = pl.add(pv, o)
            o2 = pl.yield_(o1)
        y[:] = o2
    return y
