#!/usr/bin/env python3
"""gen_nz_data — inputs and expected outputs of tests/cli/test_nz.sh, computed with numpy, outside ptoc.

For each case NAME (programs tests/nz/NAME.py, right operand `b` declared pl.NZ) it writes to data/:
  NAME_a.npy      the left operand, row-major
  NAME_b.npy      the right operand, row-major (what the pl.ND version of the program reads)
  NAME_b_nz.npy   the same matrix in NZ fractal order, logical [R, C] in the header (what pl.NZ reads):
                  element (i, j) at (j // c0)*(R*c0) + i*c0 + j % c0, c0 = 32 bytes / element size —
                  the walkthrough's to_nz: view [R/16, 16, C/c0, c0], permute to [C/c0, R/16, 16, c0]
  NAME_c.npy      the logical product a @ b (FP32, or INT32 for INT8 operands)
Values are small integers, so every product is exact in every dtype and ptoc's result must equal
NAME_c.npy byte for byte. BF16 is written as '<u2' bit patterns (ptoc reads those as BF16).
Run from anywhere: python3 tests/nz/gen_nz_data.py (needs numpy: apt-get install python3-numpy).
"""
import os
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = [  # name, M, K, N, operand dtype
    ("rung4_fp16", 128, 512, 128, "fp16"),
    ("small_bf16", 32, 64, 48, "bf16"),
    ("small_fp32", 32, 64, 48, "fp32"),
    ("small_int8", 48, 64, 64, "int8"),
]
ELEM_BYTES = {"fp16": 2, "bf16": 2, "fp32": 4, "int8": 1}


def to_nz(x, c0):
    r, cols = x.shape
    return np.ascontiguousarray(x.reshape(r // 16, 16, cols // c0, c0).transpose(2, 0, 1, 3)).reshape(r, cols)


def stored(x, dt):
    """The array written for dtype dt (x holds small integers)."""
    if dt == "fp16":
        return x.astype(np.float16)
    if dt == "fp32":
        return x.astype(np.float32)
    if dt == "int8":
        return x.astype(np.int8)
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)   # bf16 bits, exact for small ints


def main():
    rng = np.random.default_rng(20240606)
    os.makedirs(os.path.join(HERE, "data"), exist_ok=True)
    for name, m, k, n, dt in CASES:
        a = rng.integers(-8, 9, size=(m, k))
        b = rng.integers(-8, 9, size=(k, n))
        c0 = 32 // ELEM_BYTES[dt]
        c = (a @ b).astype(np.int32 if dt == "int8" else np.float32)
        nz = to_nz(b, c0)
        # the formula of the spec, independently of the reshape above
        i, j = 37 % k, (n - 3)
        assert nz.reshape(-1)[(j // c0) * (k * c0) + i * c0 + j % c0] == b[i, j]
        out = lambda s: os.path.join(HERE, "data", "%s_%s.npy" % (name, s))
        np.save(out("a"), stored(a, dt))
        np.save(out("b"), stored(b, dt))
        np.save(out("b_nz"), stored(nz, dt))
        np.save(out("c"), c)


if __name__ == "__main__":
    main()
