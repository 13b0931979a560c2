# Status: fixed on main in 8547d01 (regression test in tests/e2e/vec_*); kept as the fuzzer found it.
# Found by progfuzz (features default,+vec; seeds 109, 114, 125 of the first compile-only runs),
# minimised by hand. Side: the compiler.
# `ptoc compile` fails with an internal error:
#   error: internal: IR verification failed in function 'f_incore_0': 'v' is used before it is defined
# A tensor parameter bound to another name inside pl.at (v = x) and then used by a vector op. The same
# program with `v = x[:]`, or with pl.mul(x, 2.0), compiles.
import pypto.language as pl


@pl.jit
def f(x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        v = x
        y[:] = pl.mul(v, 2.0)
    return y
