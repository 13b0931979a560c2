#!/usr/bin/env python3
"""gen_splitk_data — inputs and expected products for tests/cli/test_splitk.sh, computed with numpy
(outside ptoc). INT8 operands drawn uniformly from [-128, 127]; the INT32 product is exact, so the
test compares ptoc's simulated output with it bit for bit. Each case: NAME M K N (a[M, K] @ b[K, N]).
Run from the repository root: /usr/bin/python3 tests/splitk/gen_splitk_data.py"""
import numpy as np

CASES = [("i8_16x64x1152", 16, 64, 1152), ("i8_512x128x80", 512, 128, 80), ("i8_64x128x80", 64, 128, 80)]

def main():
    rng = np.random.default_rng(2232)
    for name, m, k, n in CASES:
        a = rng.integers(-128, 128, size=(m, k), dtype=np.int8)
        b = rng.integers(-128, 128, size=(k, n), dtype=np.int8)
        c = a.astype(np.int32) @ b.astype(np.int32)
        np.save(f"tests/splitk/data/{name}.a.npy", a)
        np.save(f"tests/splitk/data/{name}.b.npy", b)
        np.save(f"tests/splitk/data/{name}.c.npy", c)

if __name__ == "__main__":
    main()
