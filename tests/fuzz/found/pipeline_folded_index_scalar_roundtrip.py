# Status: fixed on main in 8547d01 (regression test in tests/e2e/vec_*); kept as the fuzzer found it.
# Found by progfuzz (features default,+vec; seed 96 of a compile-only run), minimised by hand.
# Side: the compiler (a pass leaves IR its own printer and parser do not round-trip).
# `ptoc compile --verify-roundtrip` fails:
#   [internal] round trip after 16_after_Simplify.py: print -> parse is not structurally equal:
#   function 'f_incore_0': statement #3: assigned value differs:
#   pl.tile.adds(x__vec, 2) vs pl.tile.adds(x__vec, pl.const(2.0, pl.FP16))
# The pipeline loop of one iteration is peeled, Simplify folds the scalar operand i + 2 to the INDEX
# constant 2, which prints as `2` and parses back as an FP16 constant (literal typing). With
# pl.range(1) or pl.pipeline over two iterations it round-trips.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[8, 32], pl.FP16], y: pl.Out[pl.Tensor[[8, 32], pl.FP16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.pipeline(0, 1, 1, stage=2):
            y[:] = pl.add(x, i + 2)
    return y
