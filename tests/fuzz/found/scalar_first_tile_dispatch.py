# Status: fixed on main in 8547d01 (regression test in tests/e2e/vec_*); kept as the fuzzer found it.
# Found by progfuzz (features default,+vec; seed 15 of the first compile-only run), minimised by
# hand. Side: the compiler (front end).
# `ptoc compile` rejects it: "tensor.muls: the first operand must be a tensor, got 'v' tile [16, 32] FP32".
# src/front/sugar_vec.c swaps a scalar first operand of a commutative op to second place, and that
# works at the tensor level (pl.mul(3.0, x[0:16, :]) compiles), but with a tile the call is
# dispatched on the first operand (a scalar) to the tensor op before the swap, so the tile form of
# pl.mul(3.0, t) / pl.add(2, t) / pl.maximum(1.0, t) is an error that names the wrong op. Either
# the swap should happen before the dispatch or the message should say a scalar cannot come first.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        v = pl.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Vec)
        y = pl.store(pl.mul(3.0, v), [0, 0], y)
    return y
