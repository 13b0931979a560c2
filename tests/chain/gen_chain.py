"""gen_chain — inputs and numpy-computed expected outputs for tests/cli/test_chain.sh (run by hand with
numpy; the .npy files are committed, `make test` needs no Python).

Each case is a chained matmul d = cast(a @ b) @ e. Inputs are small non-negative integers (e signed), so
every FP32 sum is exact whatever the accumulation order, and the intermediate a @ b lands on many exact
ties of the BF16 / FP16 grid (odd multiples of half a step): the expected output then tells round half
to even (what the FIXPIPE Acc -> Mat copy does) from any other rounding, bit-exactly."""
import numpy as np

rng = np.random.default_rng(7)


def bf16_rne(x):
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16
    return u.astype(np.uint32).view(np.float32)


def bf16_bits(x):   # exact BF16 values -> '|V2' as ptoc reads them
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16).view('V2')


CASES = {   # name: (M, K, N, P, cast dtype, a/b max)
    "castfold_kloop_bf16": (128, 512, 128, 64, "bf16", 8),
    "matscratch_256_bf16": (256, 64, 256, 64, "bf16", 8),
    "matscratch_peel_fp16": (384, 128, 336, 32, "fp16", 8),
}

for name, (M, K, N, P, cd, hi) in CASES.items():
    a = rng.integers(0, hi + 1, (M, K)).astype(np.float16)
    b = rng.integers(0, hi + 1, (K, N)).astype(np.float16)
    e = rng.integers(-3, 4, (N, P)).astype(np.float32)
    c = a.astype(np.float64) @ b.astype(np.float64)          # exact integers < 2^24
    assert c.max() < 2 ** 24
    cb = bf16_rne(c.astype(np.float32)) if cd == "bf16" else c.astype(np.float32).astype(np.float16).astype(np.float32)
    d = cb.astype(np.float64) @ e.astype(np.float64)
    assert np.abs(d).max() < 2 ** 24                          # exact in FP32 in any order
    # the case must tell the modes apart: some intermediates are ties that half-away rounds up
    step = 2.0 ** (np.floor(np.log2(np.maximum(c, 1))) - (7 if cd == "bf16" else 10))
    ties = np.sum(np.mod(c, step) == step / 2)
    assert ties > 0, name
    np.save(f"data/{name}.a.npy", a)
    np.save(f"data/{name}.b.npy", b)
    np.save(f"data/{name}.e.npy", bf16_bits(e) if cd == "bf16" else e.astype(np.float16))
    np.save(f"data/{name}.d.expect.npy", d.astype(np.float32))
    print(name, "ties in the intermediate:", int(ties))
