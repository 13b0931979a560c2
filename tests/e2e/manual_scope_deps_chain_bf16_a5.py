# Manual scope, four regions: 'left' and 'right' fill disjoint column halves of t independently,
# 'mix' depends on both (deps=[l, r]) and 'tail' on 'mix' only, although it also reads t: ordered
# transitively through 'mix'. Three explicit edges, no race.
# expect-json: "tasks":4,"edges":3
# expect-json: "races":0
# (variant: --target a5 --memory-planner dsa_rp)
# args: --target a5 --memory-planner dsa_rp
import pypto.language as pl

@pl.jit
def chain(a: pl.Tensor[[32, 64], pl.BF16],
          b: pl.Tensor[[64, 96], pl.BF16],
          w: pl.Tensor[[96, 48], pl.FP32],
          t: pl.Out[pl.Tensor[[32, 96], pl.FP32]],
          u: pl.Out[pl.Tensor[[32, 48], pl.FP32]],
          v: pl.Out[pl.Tensor[[32, 96], pl.FP32]]):
    with pl.manual_scope():
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="left") as l:
            t[:, 0:48] = pl.matmul(a, b[:, 0:48], out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="right") as r:
            t[:, 48:96] = pl.matmul(a, b[:, 48:96], out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mix", deps=[l, r]) as m:
            u[:] = pl.matmul(t, w, out_dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="tail", deps=[m]):
            v[:, 0:48] = pl.matmul(t[:, 0:64], w[0:64, :], out_dtype=pl.FP32)
            v[:, 48:96] = pl.matmul(t[:, 32:96], w[32:96, :], out_dtype=pl.FP32)
    return v
