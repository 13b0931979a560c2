#!/usr/bin/env python3
"""gen_vec_cases — end-to-end cases of ptoc's vector ops with results computed by numpy, outside ptoc.

For every op of spec/ops.md §4 that ptoc implements and every dtype it accepts, this writes
  cases/NAME_tile.py     the op at the tile level (pl.load ... target_memory=pl.Mem.Vec, pl.store)
  cases/NAME_tensor.py   the op at the tensor level (`y[:] = pl.op(...)` inside pl.at), when the op
                         has a tensor form (fillpad and the ragged valid-shape cases are tile-only)
  data/NAME.P.npy        input parameter P
  data/NAME.Y.expect.npy the expected value of output parameter Y
and the manifest cases.list, one case a line:  NAME SPELLINGS INPUTS OUTPUTS TOLERANCE
(SPELLINGS = tile,tensor or tile; INPUTS/OUTPUTS comma lists or '-'; TOLERANCE = exact, or error:
the run must fail with "integer division by zero").
tests/cli/test_vec.sh runs every program on both targets and compares with these files.

The numerics modelled (spec/ops.md §2.8, §4 and the §7 decisions), all computed here without ptoc:
  * float ops are computed exactly (float64 holds every exact sum/product/quotient of the inputs used
    here, or rounds a quotient innocuously: 53 >= 2p+2 bits) and rounded ONCE to the element type,
    round to nearest even. FP16: numpy's float64 -> float16 conversion (correctly rounded). BF16:
    float64 -> float32 with round-to-odd, then RNE to the top 16 bits. Casts with a rounding mode use
    an exact rational (fractions.Fraction) rounding instead, cross-checked against the RNE paths.
  * the scalar of a scalar form is first converted (RNE) to the element type;
  * integers wrap two's-complement; integer division truncates toward zero;
  * row/col sums: FP16/BF16 accumulate sequentially in float32 and round once; FP32 accumulate
    sequentially in float32 (np.add.accumulate is strictly sequential); integers wrap;
  * maximum/minimum are std::max(a, b) = (a < b) ? b : a and std::min(a, b) = (b < a) ? b : a
    (a NaN first operand propagates, a NaN second operand is dropped; max(-0, +0) = -0);
  * exp/log/sqrt/rsqrt in float64, rounded once; recip = 1/x rounded once; IEEE for x/0, log(0),
    recip(0), rsqrt(0), sqrt(-1);
  * cast modes: round = nearest, ties away from zero; rint = ties to even; floor; ceil; trunc; the
    mode is honoured for every conversion (decision 6); float -> int rounds then saturates; int -> int
    wraps; int -> float rounds per the mode.
  * fillpad: pad zero/max/min = 0 / +inf or INT_MAX / -inf or INT_MIN outside the source's valid
    region; a store of a tile with a valid shape writes only the valid region (Out tensors start at 0).

Inputs come from a fixed seed, so re-running the script reproduces the committed files byte for byte.
Run: /usr/bin/python3 tests/vec/gen_vec_cases.py   (needs numpy: apt-get install python3-numpy)
"""
import math
import os
import shutil
import sys
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(HERE, "cases")
DATA_DIR = os.path.join(HERE, "data")

FLOATS = ("FP32", "FP16", "BF16")
INTS = ("INT32", "INT16", "INT8")
ELEM_BYTES = {"FP32": 4, "FP16": 2, "BF16": 2, "INT32": 4, "INT16": 2, "INT8": 1}
INT_RANGE = {t: (-(1 << (8 * ELEM_BYTES[t] - 1)), (1 << (8 * ELEM_BYTES[t] - 1)) - 1) for t in INTS}
INT_RANGE["UINT8"] = (0, 255)          # packed compare masks
INT_RANGE["UINT16"] = (0, 65535)       # not_ (gen_bits)
# precision bits, minimum normal exponent, largest finite value
FLOAT_FMT = {"FP32": (24, -126, float(np.finfo(np.float32).max)),
             "FP16": (11, -14, 65504.0),
             "BF16": (8, -126, float.fromhex("0x1.fep127"))}

np.seterr(all="ignore")
RNG = np.random.default_rng(20240607)


# ---------------------------------------------------------------------------------------------
# rounding to the element types
# ---------------------------------------------------------------------------------------------

def f64_to_f32_round_odd(x):
    """float64 array -> float32 array rounded to odd (truncate toward zero, set the last bit when
    inexact); a following RNE to fewer than 23 bits then equals one RNE rounding of x."""
    x = np.asarray(x, dtype=np.float64)
    f = x.astype(np.float32)
    back = f.astype(np.float64)
    inexact = np.isfinite(x) & np.isfinite(f) & (back != x)
    over = inexact & (np.abs(back) > np.abs(x))
    f[over] = np.nextafter(f[over], np.float32(0))
    bits = f.view(np.uint32).copy()
    bits[inexact] |= np.uint32(1)
    return bits.view(np.float32)


def f32_to_bf16_bits(f):
    """float32 array -> BF16 bit patterns (uint16), round to nearest even; NaN stays a quiet NaN."""
    u = np.asarray(f, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF
    nan = np.isnan(np.asarray(f, dtype=np.float32))
    r[nan] = (u[nan] >> 16) | 0x40
    return r.astype(np.uint16)


def bf16_bits_to_f64(b):
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def rne(dt, x):
    """x (float64 array, exact value) rounded once to float dtype dt (RNE), returned as float64."""
    x = np.asarray(x, dtype=np.float64)
    if dt == "FP32":
        return x.astype(np.float32).astype(np.float64)
    if dt == "FP16":
        return x.astype(np.float16).astype(np.float64)
    if dt == "BF16":
        return bf16_bits_to_f64(f32_to_bf16_bits(f64_to_f32_round_odd(x)))
    raise ValueError(dt)


def wrap(dt, v):
    """Python int / int array wrapped two's-complement to integer dtype dt (as int64)."""
    lo, hi = INT_RANGE[dt]
    m = hi - lo + 1
    return np.asarray((np.asarray(v, dtype=object) - lo) % m + lo, dtype=np.int64)


def round_fraction(fr, mode):
    """An exact Fraction rounded to an integer with mode round/rint/floor/ceil/trunc."""
    fl = math.floor(fr)
    if fr == fl:
        return fl
    d = fr - fl
    if mode == "floor":
        return fl
    if mode == "ceil":
        return fl + 1
    if mode == "trunc":
        return fl if fr > 0 else fl + 1
    if d != Fraction(1, 2):
        return fl if d < Fraction(1, 2) else fl + 1
    if mode == "rint":
        return fl if fl % 2 == 0 else fl + 1
    if mode == "round":
        return fl + 1 if fr > 0 else fl
    raise ValueError(mode)


def round_exact(dt, x, mode):
    """One value x (a Python float, exact) rounded to float dtype dt with a rounding mode, by exact
    rational arithmetic; the result must be finite (the generator keeps inputs in range)."""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    p, emin, fmax = FLOAT_FMT[dt]
    e = max(math.frexp(x)[1] - 1, emin)           # exponent of x's binade (or the subnormal one)
    q = Fraction(2) ** (e - (p - 1))             # the spacing of dt there
    k = round_fraction(Fraction(x) / q, mode)
    r = float(k * q)
    if r == 0:
        return math.copysign(0.0, x)
    assert abs(r) <= fmax, f"{x} rounds out of {dt} range"
    return r


def cast_model(src, dst, x, mode):
    """spec/ops.md §4.4 + decision 6, per element (x: float64 array of src values)."""
    out = np.empty(x.shape, dtype=np.float64)
    flat_in, flat_out = x.reshape(-1), out.reshape(-1)
    for i, v in enumerate(flat_in):
        v = float(v)
        if dst in FLOATS:
            flat_out[i] = round_exact(dst, v, mode)
        elif src in FLOATS:                       # float -> int: round per mode, saturate
            lo, hi = INT_RANGE[dst]
            if math.isinf(v):
                flat_out[i] = hi if v > 0 else lo
            else:
                k = round_fraction(Fraction(v), mode)
                flat_out[i] = min(max(k, lo), hi)
        else:                                     # int -> int: wrap
            flat_out[i] = int(wrap(dst, int(v)))
    return out


def self_check():
    """The RNE paths (numpy float16, round-to-odd BF16) against the exact rational rounding."""
    vals = np.concatenate([RNG.uniform(-70000, 70000, 4000), RNG.standard_normal(4000) * 1e-5,
                           np.ldexp(RNG.integers(1 << 20, 1 << 21, 4000).astype(np.float64), -20),
                           (np.arange(2000) + 0.5) * 2.0 ** -24])
    for dt in FLOATS:
        p, emin, fmax = FLOAT_FMT[dt]
        v = vals[np.abs(vals) < fmax * 0.99]
        a = rne(dt, v)
        b = np.array([round_exact(dt, float(t), "rint") for t in v])
        assert np.array_equal(a, b), f"RNE self-check failed for {dt}"
    # BF16 ties at float64 precision (the case a naive float64->float32->bf16 double rounding gets wrong)
    x = 1.0 + 2.0 ** -8 + 2.0 ** -40      # just above the tie between 1 and 1 + 2^-7
    assert rne("BF16", np.array([x]))[0] == 1.0 + 2.0 ** -7


# ---------------------------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------------------------

def to_dtype(dt, x):
    """Representable values of dt nearest to x (float64 array), as float64."""
    if dt in FLOATS:
        return rne(dt, x)
    lo, hi = INT_RANGE[dt]
    return np.clip(np.rint(x), lo, hi).astype(np.float64)


def rand_float(dt, shape, lo_exp, hi_exp, zeros=0):
    """sign * 2^U(lo_exp, hi_exp) rounded to dt: values of many binades, so sums/products round."""
    n = int(np.prod(shape))
    mag = np.exp2(RNG.uniform(lo_exp, hi_exp, n))
    v = np.where(RNG.random(n) < 0.5, -mag, mag)
    if zeros:
        v[RNG.choice(n, zeros, replace=False)] = 0.0
    return to_dtype(dt, v).reshape(shape)


def rand_int(dt, shape, lo=None, hi=None):
    a, b = INT_RANGE[dt]
    lo = a if lo is None else lo
    hi = b if hi is None else hi
    return RNG.integers(lo, hi + 1, int(np.prod(shape)), dtype=np.int64).astype(np.float64).reshape(shape)


def rand_vals(dt, shape, float_exp=(-8, 8), int_lim=None):
    if dt in FLOATS:
        return rand_float(dt, shape, *float_exp)
    if int_lim is None:
        return rand_int(dt, shape)
    return rand_int(dt, shape, -int_lim, int_lim)


def plant(x, values):
    """Writes the given values at the first positions of x (a copy)."""
    x = x.copy()
    flat = x.reshape(-1)
    flat[:len(values)] = values
    return x


# ---------------------------------------------------------------------------------------------
# case registry and writers
# ---------------------------------------------------------------------------------------------

CASES = []


class Case:
    def __init__(self, name, inputs, outputs, tile_body, tensor_body, tol="exact", loads=None):
        """inputs/outputs: list of (param, dtype, shape, float64 array); outputs' arrays are the
        expected values. tile_body/tensor_body: lists of statement lines inside pl.at (or None).
        loads: {param: (shape, valid_shape)} overriding the tile-level load of an input."""
        self.name, self.inputs, self.outputs = name, inputs, outputs
        self.tile_body, self.tensor_body, self.tol, self.loads = tile_body, tensor_body, tol, loads or {}
        CASES.append(self)


def npy_array(dt, x):
    x = np.asarray(x, dtype=np.float64)
    if dt == "FP32":
        r = x.astype(np.float32)
        assert np.array_equal(r.astype(np.float64), x, equal_nan=True), "value not representable in FP32"
        return r
    if dt == "FP16":
        r = x.astype(np.float16)
        assert np.array_equal(r.astype(np.float64), x, equal_nan=True), "value not representable in FP16"
        return r
    if dt == "BF16":
        b = f32_to_bf16_bits(x.astype(np.float32))
        assert np.array_equal(bf16_bits_to_f64(b), x, equal_nan=True), "value not representable in BF16"
        # keep the sign bit of -0.0 and of NaNs as given
        return b.view("V2")
    lo, hi = INT_RANGE[dt]
    assert np.all(np.isfinite(x)) and x.min() >= lo and x.max() <= hi and np.all(x == np.rint(x)), f"bad {dt} values"
    return x.astype({"INT32": np.int32, "INT16": np.int16, "INT8": np.int8, "UINT8": np.uint8, "UINT16": np.uint16}[dt])


def ptype(shape, dt):
    return f"pl.Tensor[[{', '.join(str(s) for s in shape)}], pl.{dt}]"


def program(c, body):
    params = [f"{p}: {ptype(s, dt)}" for p, dt, s, _ in c.inputs]
    params += [f"{p}: pl.Out[{ptype(s, dt)}]" for p, dt, s, _ in c.outputs]
    outs = ", ".join(p for p, _, _, _ in c.outputs)
    lines = ["# generated by tests/vec/gen_vec_cases.py: do not edit", "import pypto.language as pl", "", "",
             "@pl.jit", f"def {c.name}({', '.join(params)}):",
             "    with pl.at(level=pl.Level.CORE_GROUP):"]
    lines += ["        " + b for b in body]
    lines.append(f"    return {outs}")
    return "\n".join(lines) + "\n"


def tile_loads(c):
    lines = []
    for p, dt, s, _ in c.inputs:
        shape, valid = c.loads.get(p, (s, None))
        zeros = ", ".join("0" for _ in s)
        sh = ", ".join(str(v) for v in shape)
        vs = f", [{', '.join(str(v) for v in valid)}]" if valid else ""
        lines.append(f"t{p} = pl.load({p}, [{zeros}], [{sh}]{vs}, target_memory=pl.Mem.Vec)")
    return lines


def write_all():
    for d in (CASES_DIR, DATA_DIR):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    manifest = ["# generated by gen_vec_cases.py: NAME SPELLINGS INPUTS OUTPUTS TOLERANCE"]
    names = set()
    for c in CASES:
        assert c.name not in names, c.name
        names.add(c.name)
        spell = []
        if c.tile_body is not None:
            with open(os.path.join(CASES_DIR, c.name + "_tile.py"), "w") as f:
                f.write(program(c, tile_loads(c) + c.tile_body))
            spell.append("tile")
        if c.tensor_body is not None:
            with open(os.path.join(CASES_DIR, c.name + "_tensor.py"), "w") as f:
                f.write(program(c, c.tensor_body))
            spell.append("tensor")
        for p, dt, s, x in c.inputs:
            assert x.shape == tuple(s), (c.name, p)
            np.save(os.path.join(DATA_DIR, f"{c.name}.{p}.npy"), npy_array(dt, x))
        for p, dt, s, x in c.outputs:
            if c.tol == "error":
                continue
            assert x.shape == tuple(s), (c.name, p)
            np.save(os.path.join(DATA_DIR, f"{c.name}.{p}.expect.npy"), npy_array(dt, x))
        ins = ",".join(p for p, _, _, _ in c.inputs) or "-"
        outs = ",".join(p for p, _, _, _ in c.outputs)
        manifest.append(f"{c.name} {','.join(spell)} {ins} {outs} {c.tol}")
    with open(os.path.join(HERE, "cases.list"), "w") as f:
        f.write("\n".join(manifest) + "\n")


# ---------------------------------------------------------------------------------------------
# op models
# ---------------------------------------------------------------------------------------------

def std_max(a, b):
    return np.where(a < b, b, a)


def std_min(a, b):
    return np.where(b < a, b, a)


def int_div(a, b):
    a = a.astype(np.int64)
    b = b.astype(np.int64)
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q).astype(np.float64)


def no_int_overflow_div(dt, a, b):
    """INT_MIN / -1 overflows (undefined): replace such dividends by INT_MIN + 1 (in place)."""
    if dt in INTS:
        lo = INT_RANGE[dt][0]
        a[(a == lo) & (np.broadcast_to(b, a.shape) == -1)] = lo + 1


def binary_model(op, dt, a, b):
    """Elementwise a OP b in dtype dt (a, b: float64 arrays of dt values)."""
    if op in ("maximum", "minimum"):
        return (std_max if op == "maximum" else std_min)(a, b)
    if dt in FLOATS:
        r = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[op]
        return rne(dt, r)
    ai, bi = a.astype(np.int64), b.astype(np.int64)
    if op == "div":
        return wrap(dt, int_div(ai, bi).astype(np.int64)).astype(np.float64)
    r = {"add": ai + bi, "sub": ai - bi, "mul": ai * bi}[op]
    return wrap(dt, r).astype(np.float64)


def unary_model(op, dt, x):
    if op == "exp":
        return rne(dt, np.exp(x))
    if op == "log":
        return rne(dt, np.log(x))
    if op == "sqrt":
        return rne(dt, np.sqrt(x))
    if op == "rsqrt":
        return rne(dt, 1.0 / np.sqrt(x))
    if op == "recip":
        return rne(dt, 1.0 / x)
    if op == "abs":
        return np.abs(x) if dt in FLOATS else wrap(dt, np.abs(x.astype(np.int64))).astype(np.float64)
    if op == "neg":
        return -x if dt in FLOATS else wrap(dt, -x.astype(np.int64)).astype(np.float64)
    if op == "relu":
        return std_max(x, np.zeros_like(x))
    raise ValueError(op)


def row_reduce(op, dt, x):
    """Row reduction of x [R, C] -> [R, 1] (spec/ops.md §4.6, decision 5)."""
    if op == "sum":
        if dt in FLOATS:
            acc = np.add.accumulate(x.astype(np.float32), axis=1, dtype=np.float32)[:, -1:]
            return rne(dt, acc.astype(np.float64))
        return wrap(dt, x.astype(np.int64).sum(axis=1, keepdims=True)).astype(np.float64)
    f = std_max if op == "max" else std_min
    acc = x[:, 0:1].copy()
    for j in range(1, x.shape[1]):
        acc = f(acc, x[:, j:j + 1])
    return acc


def col_reduce(op, dt, x):
    return row_reduce(op, dt, x.T.copy()).T.copy()


FP_EXP = {"FP32": (-20, 20), "FP16": (-6, 6), "BF16": (-20, 20)}
R, C = 8, 64


def shp():
    return (R, C)


# ---------------------------------------------------------------------------------------------
# the cases
# ---------------------------------------------------------------------------------------------

BINARY_DTYPES = {op: FLOATS + INTS for op in ("add", "sub", "mul", "maximum", "minimum")}
BINARY_DTYPES["div"] = ("FP32", "FP16", "BF16", "INT32", "INT16")


def binary_inputs(op, dt, s):
    if dt in FLOATS:
        a = rand_float(dt, s, *FP_EXP[dt], zeros=3)
        b = rand_float(dt, s, *FP_EXP[dt], zeros=3 if op != "div" else 0)
        if op == "div":   # IEEE: x/0 = +-inf, 0/0 = NaN (decision 8)
            a = plant(a, [1.5, -2.0, 0.0])
            b = plant(b, [0.0, 0.0, 0.0])
        if op in ("maximum", "minimum"):   # std::max / std::min with NaN and signed zeros
            a = plant(a, [np.nan, 1.0, -0.0, 0.0, np.nan, np.inf])
            b = plant(b, [1.0, np.nan, 0.0, -0.0, np.nan, -np.inf])
        return a, b
    a = rand_int(dt, s)
    if op == "div":
        lo, hi = INT_RANGE[dt]
        b = rand_int(dt, s, -300, 300)
        b[b == 0] = 7
        b = plant(b, [hi, lo, -1, 1, 2, -2, 3, -3])
        a = plant(a, [hi, lo + 1, lo + 1, lo, -7, -7, 7, -7])
        a[(a == lo) & (b == -1)] = lo + 1      # INT_MIN / -1 overflows: not defined
        return a, b
    return a, plant(rand_int(dt, s), [INT_RANGE[dt][1], INT_RANGE[dt][0]])


def gen_binary():
    for op, dts in BINARY_DTYPES.items():
        for dt in dts:
            s = shp()
            a, b = binary_inputs(op, dt, s)
            y = binary_model(op, dt, a, b)
            Case(f"{op}_{dt.lower()}", [("a", dt, s, a), ("b", dt, s, b)], [("y", dt, s, y)],
                 [f"pl.store(pl.{op}(ta, tb), [0, 0], y)"], [f"y[:] = pl.{op}(a, b)"])


SCALAR_OPS = {"add": "adds", "sub": "subs", "mul": "muls", "div": "divs", "maximum": "maximums", "minimum": "minimums"}
# float scalars mostly not representable in FP16/BF16: the scalar must be rounded to the element type first
FLOAT_SCALAR = {"add": "0.1", "sub": "0.3", "mul": "0.7", "div": "3.0", "maximum": "0.2", "minimum": "-0.6"}
INT_SCALAR = {"add": "100", "sub": "77", "mul": "3", "div": "-7", "maximum": "-3", "minimum": "5"}


def gen_scalar():
    for op, sop in SCALAR_OPS.items():
        for dt in BINARY_DTYPES[op]:
            s = shp()
            lit = FLOAT_SCALAR[op] if dt in FLOATS else INT_SCALAR[op]
            sv = to_dtype(dt, np.full(s, float(lit)))
            x = rand_float(dt, s, *FP_EXP[dt], zeros=2) if dt in FLOATS else rand_int(dt, s)
            y = binary_model(op, dt, x, sv)
            Case(f"{sop}_{dt.lower()}", [("x", dt, s, x)], [("y", dt, s, y)],
                 [f"pl.store(pl.{op}(tx, {lit}), [0, 0], y)"], [f"y[:] = pl.{op}(x, {lit})"])
    # a scalar on the left of a commutative op is swapped to the right
    for op, lit in (("add", "0.1"), ("mul", "0.7"), ("maximum", "0.2"), ("minimum", "-0.6")):
        s = shp()
        x = rand_float("FP32", s, -20, 20, zeros=2)
        y = binary_model(op, "FP32", np.full(s, rne("FP32", np.array(float(lit)))), x)
        Case(f"{SCALAR_OPS[op]}_left_fp32", [("x", "FP32", s, x)], [("y", "FP32", s, y)],
             [f"pl.store(pl.{op}({lit}, tx), [0, 0], y)"], [f"y[:] = pl.{op}({lit}, x)"])
    # tensor level: an integer tensor with a float literal is cast to FP32 first (spec §2.1)
    s = shp()
    x = rand_int("INT32", s, -1000, 1000)
    Case("muls_int32_by_float_tensor", [("x", "INT32", s, x)], [("y", "FP32", s, rne("FP32", x * 2.5))],
         None, ["y[:] = pl.mul(x, 2.5)"])


UNARY_DTYPES = {"exp": FLOATS, "sqrt": FLOATS, "rsqrt": FLOATS, "recip": FLOATS, "log": ("FP32", "FP16"),
                "abs": ("FP32", "FP16", "INT32", "INT16"), "neg": ("FP32", "FP16", "INT32", "INT16"),
                "relu": ("FP32", "FP16", "INT32", "INT16")}


def unary_input(op, dt, s):
    n = int(np.prod(s))
    if op == "exp":
        lim = {"FP32": 80.0, "FP16": 11.0, "BF16": 80.0}[dt]
        lo = {"FP32": -80.0, "FP16": -16.0, "BF16": -80.0}[dt]
        return to_dtype(dt, RNG.uniform(lo, lim, n)).reshape(s)
    if op in ("log", "sqrt", "rsqrt"):
        e = {"FP32": (-30, 30), "FP16": (-14, 15), "BF16": (-30, 30)}[dt]
        x = to_dtype(dt, np.exp2(RNG.uniform(*e, n))).reshape(s)
        if op == "log":
            return plant(x, [0.0, -1.0, 1.0, np.inf])          # -inf, NaN, 0, inf
        if op == "sqrt":
            return plant(x, [0.0, -0.0, -1.0, 4.0, np.inf])   # 0, -0, NaN, 2, inf
        return plant(x, [0.0, 4.0, np.inf])                   # rsqrt: inf, 0.5, 0
    if op == "recip":
        e = {"FP32": (-30, 30), "FP16": (-14, 14), "BF16": (-30, 30)}[dt]
        x = rand_float(dt, s, *e)
        return plant(x, [0.0, -0.0, 3.0, np.inf])             # inf, -inf, 1/3, 0
    if dt in FLOATS:
        x = rand_float(dt, s, *FP_EXP[dt], zeros=2)
        if op == "neg":
            x = plant(x, [0.0, -0.0, np.inf])
        return x
    lo, hi = INT_RANGE[dt]
    x = rand_int(dt, s)
    if op == "abs":
        x[x == lo] = lo + 1          # |INT_MIN| is not representable: not tested
        return plant(x, [lo + 1, hi, 0, -1])
    return plant(x, [lo, hi, 0, -1])   # neg(INT_MIN) wraps to INT_MIN


def robust(dt, y, margin=2.0 ** -40):
    """Mask of the float64 results y whose rounding to dt does not change within a relative margin:
    for those, any libm within a few thousand double ulps of the true value (numpy's exp/log vs
    C's) gives the same dt result, so an exact comparison is safe."""
    return (rne(dt, y * (1 + margin)) == rne(dt, y)) & (rne(dt, y * (1 - margin)) == rne(dt, y)) | ~np.isfinite(y)


# FP16 inputs whose float64 result lies within an FP32 rounding of an FP16 midpoint: rounding it to
# FP32 first and then to FP16 (double rounding) gives a different FP16 value than one rounding does
# (found by searching all 65536 FP16 values; BF16 has no such input for these ops)
DOUBLE_ROUNDING = {("exp", "FP16"): [0.007297515869140625, 0.0226898193359375], ("log", "FP16"): [0.005340576171875]}


def gen_unary():
    for op, dts in UNARY_DTYPES.items():
        for dt in dts:
            s = shp()
            x = unary_input(op, dt, s)
            if (op, dt) in DOUBLE_ROUNDING:
                flat = x.reshape(-1)
                flat[-len(DOUBLE_ROUNDING[op, dt]):] = DOUBLE_ROUNDING[op, dt]
            if op in ("exp", "log", "rsqrt"):
                # exp/log/rsqrt in float64 are within an ulp of double of the true value in numpy and in
                # C's libm, but not necessarily the same double: keep only inputs whose result is far
                # (2^-40 relative) from a rounding boundary of the element type, so the comparison can
                # stay exact (an FP32 exp computed in float instead of double, 1 FP32 ulp off, fails it).
                # sqrt and recip are correctly rounded everywhere.
                for _ in range(100):
                    bad = ~robust(dt, unary_model_exact(op, x))
                    if not bad.any():
                        break
                    x[bad] = unary_input(op, dt, s)[bad]
                assert robust(dt, unary_model_exact(op, x)).all()
            y = unary_model(op, dt, x)
            Case(f"{op}_{dt.lower()}", [("x", dt, s, x)], [("y", dt, s, y)],
                 [f"pl.store(pl.{op}(tx), [0, 0], y)"], [f"y[:] = pl.{op}(x)"])


def unary_model_exact(op, x):
    return {"exp": np.exp, "log": np.log, "rsqrt": lambda v: 1.0 / np.sqrt(v)}[op](x)


CAST_DTYPES = ("FP32", "FP16", "BF16", "INT32", "INT16", "INT8")
MODES = ("round", "rint", "floor", "ceil", "trunc")


def ties_in(dst, lo_exp, hi_exp, n):
    """n float values exactly halfway between two neighbours of float dtype dst (and n values a
    quarter of the way), magnitudes 2^U(lo_exp, hi_exp), both signs."""
    p = FLOAT_FMT[dst][0]
    e = RNG.integers(lo_exp, hi_exp, n)
    m = RNG.integers(1 << (p - 1), 1 << p, n).astype(np.float64)   # p-bit significands
    half = np.ldexp(m + 0.5, e - (p - 1))
    quarter = np.ldexp(m + np.where(RNG.random(n) < 0.5, 0.25, 0.75), e - (p - 1))
    sign = np.where(RNG.random(2 * n) < 0.5, -1.0, 1.0)
    return np.concatenate([half, quarter]) * sign


def cast_input(src, dst, s):
    n = int(np.prod(s))
    if src in FLOATS:
        if dst in INTS:
            lo, hi = INT_RANGE[dst]
            specials = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5, 2.25, -2.75, 0.0, -0.0]
            big = float(min(hi, 60000))
            specials += [float(hi) + 1000.0, float(lo) - 1000.0] if src != "FP16" or dst == "INT8" else []
            if src == "FP16" and dst == "INT16":
                specials += [65504.0, -65504.0]               # saturate
            if src == "FP32" and dst in ("INT32", "INT8"):
                specials += [np.inf, -np.inf, 3e9, -3e9]      # saturate
            body = RNG.uniform(-big, big, n)
            # half-integers and small values where the modes differ
            body[: n // 2] = np.round(RNG.uniform(-100, 100, n // 2) * 4) / 4
            x = to_dtype(src, body)
            x = plant(x, [to_dtype(src, np.array([v]))[0] for v in specials])
            return x.reshape(s)
        # float -> float
        if FLOAT_FMT[dst][0] >= FLOAT_FMT[src][0] and not (src == "BF16" and dst == "FP16"):
            return rand_float(src, s, *FP_EXP[src], zeros=2)            # widening: exact
        if dst == "FP16":      # FP32/BF16 -> FP16: ties in FP16's normal and subnormal range
            t = ties_in("FP16", -14, 15, n // 4)
            sub = (RNG.integers(0, 64, n // 4) + np.where(RNG.random(n // 4) < 0.5, 0.5, 0.25)) * 2.0 ** -24
            exact = np.concatenate([t, sub])
        else:                  # -> BF16
            lo_e, hi_e = (-14, 15) if src == "FP16" else (-100, 100)
            exact = ties_in("BF16", lo_e, hi_e, n // 4)
        if src != "BF16":      # (BF16 -> FP16 has ties only among the FP16 subnormals)
            assert np.array_equal(to_dtype(src, exact), exact), "tie values must be exact in the source type"
        lim = 60000 if dst == "FP16" else 1000
        v = np.concatenate([exact, RNG.uniform(-lim, lim, n)])[:n]
        x = to_dtype(src, v)
        x = plant(x, [0.0, -0.0])
        return x.reshape(s)
    # integer source
    lo, hi = INT_RANGE[src]
    if dst in INTS:
        return plant(rand_int(src, s), [lo, hi, 0, -1]).reshape(s)
    if dst == "FP32":
        base = rand_int(src, s)
        if src == "INT32":
            base = plant(base, [16777217, -16777217, 16777219, 33554433, 33554434, 33554438, lo, hi, hi - 64])
        return base
    lim = min(hi, 65000) if dst == "FP16" else hi
    base = rand_int(src, s, max(lo, -lim), lim)
    ties = [2049, -2049, 2051, 4097, 4098, 4102, 257, 259, -259, 513, 514, 32767, -32768, 0]
    return plant(base, [t for t in ties if max(lo, -lim) <= t <= lim])


def gen_cast():
    for src in CAST_DTYPES:
        for dst in CAST_DTYPES:
            if src == dst:
                continue
            s = shp()
            x = cast_input(src, dst, s)
            outs = [(f"y_{m}", dst, s, cast_model(src, dst, x, m)) for m in MODES]
            # the tile spelling relies on the default mode (round), the tensor spelling names it
            tile = [f"pl.store(pl.cast(tx, pl.{dst}), [0, 0], y_round)"] + \
                   [f"pl.store(pl.cast(tx, pl.{dst}, mode=\"{m}\"), [0, 0], y_{m})" for m in MODES[1:]]
            tensor = [f"y_{m}[:] = pl.cast(x, pl.{dst}, mode=\"{m}\")" for m in MODES]
            Case(f"cast_{src.lower()}_{dst.lower()}", [("x", src, s, x)], outs, tile, tensor)


def gen_fills():
    for dt in CAST_DTYPES:
        lit = "0.1" if dt in FLOATS else "-7"
        s = shp()
        v = to_dtype(dt, np.full(s, float(lit)))
        sh = f"[{s[0]}, {s[1]}]"
        Case(f"full_{dt.lower()}", [], [("y", dt, s, v)],
             [f"pl.store(pl.tile.full({sh}, pl.{dt}, {lit}), [0, 0], y)"],
             [f"y[:] = pl.full({sh}, dtype=pl.{dt}, value={lit})"])
        lit2 = "-2.7" if dt in FLOATS else "99"
        x = rand_vals(dt, s)
        Case(f"expands_{dt.lower()}", [("x", dt, s, x)], [("y", dt, s, to_dtype(dt, np.full(s, float(lit2))))],
             [f"pl.store(pl.expands(tx, {lit2}), [0, 0], y)"], [f"y[:] = pl.expands(x, {lit2})"])
    # fillpad: a [16, 64] tile loaded with valid shape [12, 40]; tile level only (a tensor has no
    # valid shape)
    for dt in CAST_DTYPES:
        for pad in ("zero", "max", "min"):
            s = (16, 64)
            x = rand_vals(dt, s)
            if pad == "zero":
                pv = 0.0
            elif dt in FLOATS:
                pv = np.inf if pad == "max" else -np.inf
            else:
                pv = float(INT_RANGE[dt][1] if pad == "max" else INT_RANGE[dt][0])
            y = np.full(s, pv)
            y[:12, :40] = x[:12, :40]
            Case(f"fillpad_{pad}_{dt.lower()}", [("x", dt, s, x)], [("y", dt, s, y)],
                 [f"pl.store(pl.fillpad(tx, pad_value=pl.PadValue.{pad}), [0, 0], y)"], None,
                 loads={"x": (s, (12, 40))})


def reduce_input(dt, s, kind):
    if dt == "INT32":
        return rand_int(dt, s) if kind == "sum" else rand_int(dt, s)     # sums wrap
    if dt == "FP32":
        return rand_float(dt, s, -12, 12)        # mixed magnitudes: the order of the sum matters
    # FP16/BF16: many small terms: an FP16 accumulator would round differently from FP32. The first
    # row (for col sums: column) is 32768, tiny terms below FP32's half ulp there, then -32768: an
    # FP32 accumulator loses every tiny term (sum 0), a wider one (double) does not.
    x = rand_float(dt, s, -8, 2)
    if kind == "sum":
        n = s[1] if s[0] < s[1] else s[0]
        line = np.full(n, 2.0 ** -10)
        line[0], line[-1] = 32768.0, -32768.0
        if s[0] < s[1]:
            x[0, :] = line
        else:
            x[:, 0] = line
    return x


def gen_reductions():
    for op in ("sum", "max", "min"):
        dts = ("FP32", "FP16", "INT32") + (("BF16",) if op != "min" else ())
        for dt in dts:
            s = shp()
            x = reduce_input(dt, s, op)
            yr = row_reduce(op, dt, x)
            Case(f"row_{op}_{dt.lower()}", [("x", dt, s, x)], [("y", dt, (s[0], 1), yr)],
                 [f"tmp = pl.create_tile([{s[0]}, {s[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)",
                  f"pl.store(pl.row_{op}(tx, tmp), [0, 0], y)"], [f"y[:] = pl.row_{op}(x)"])
            s2 = (64, 32) if dt != "INT32" else s
            x2 = reduce_input(dt, s2, op)
            yc = col_reduce(op, dt, x2)
            Case(f"col_{op}_{dt.lower()}", [("x", dt, s2, x2)], [("y", dt, (1, s2[1]), yc)],
                 [f"pl.store(pl.col_{op}(tx), [0, 0], y)"], [f"y[:] = pl.col_{op}(x)"])


EXPAND_OPS = ("", "_add", "_sub", "_mul", "_div", "_max", "_min")
EXPAND_MODEL = {"_add": "add", "_sub": "sub", "_mul": "mul", "_div": "div", "_max": "maximum", "_min": "minimum"}


def gen_expand():
    for dt in ("FP32", "FP16", "INT32"):
        for suffix in EXPAND_OPS:
            for fam in ("row", "col"):
                s = shp()
                vs = (s[0], 1) if fam == "row" else (1, s[1])
                t = rand_vals(dt, s, FP_EXP[dt] if dt in FLOATS else None)
                v = rand_vals(dt, vs, FP_EXP[dt] if dt in FLOATS else None)
                if suffix == "_div":
                    if dt in FLOATS:
                        v[v == 0] = 3.0
                        if dt == "FP32":
                            v = plant(v, [0.0])       # x / 0 = +-inf (decision 8)
                    else:
                        v = rand_int(dt, vs, -300, 300)
                        v[v == 0] = 5
                if suffix == "_div":
                    no_int_overflow_div(dt, t, v)
                vb = np.broadcast_to(v, s)
                y = vb.copy() if suffix == "" else binary_model(EXPAND_MODEL[suffix], dt, t, vb)
                op = f"{fam}_expand{suffix}"
                Case(f"{op}_{dt.lower()}", [("t", dt, s, t), ("v", dt, vs, v)], [("y", dt, s, y)],
                     [f"pl.store(pl.{op}(tt, tv), [0, 0], y)"], [f"y[:] = pl.{op}(t, v)"])


def gen_broadcast():
    """Tensor-level (and tile-level, decision 1) broadcasting of [M, 1] and [1, N] operands of
    add/sub/mul/div/maximum/minimum, the vector on either side: always lhs OP rhs (decision 2)."""
    specs = [(op, "FP32") for op in ("add", "sub", "mul", "div", "maximum", "minimum")]
    specs += [(op, dt) for dt in ("FP16", "INT32") for op in ("sub", "div")]
    for op, dt in specs:
        for vec in ("col", "row"):           # col: [M, 1] (one value per row); row: [1, N]
            for side in ("right", "left"):
                s = shp()
                vs = (s[0], 1) if vec == "col" else (1, s[1])
                x = rand_vals(dt, s, FP_EXP[dt] if dt in FLOATS else None)
                v = rand_vals(dt, vs, FP_EXP[dt] if dt in FLOATS else None)
                if op == "div":
                    if dt in FLOATS:
                        x[x == 0] = 1.5
                        v[v == 0] = 1.5
                    else:
                        x = rand_int(dt, s, -100000, 100000)
                        v = rand_int(dt, vs, -300, 300)
                        if side == "left":
                            v = rand_int(dt, vs)
                            x = rand_int(dt, s, -300, 300)
                        x[x == 0] = 3
                        v[v == 0] = 3
                vb = np.broadcast_to(v, s).copy()
                if op == "div" and side == "left" and dt in INTS:
                    x[x == -1] = 3            # the dividend v may be INT_MIN
                lhs, rhs = (x, vb) if side == "right" else (vb, x)
                y = binary_model(op, dt, lhs, rhs)
                args_t = "tx, tv" if side == "right" else "tv, tx"
                args = "x, v" if side == "right" else "v, x"
                Case(f"bcast_{op}_{vec}_{side}_{dt.lower()}", [("x", dt, s, x), ("v", dt, vs, v)], [("y", dt, s, y)],
                     [f"pl.store(pl.{op}({args_t}), [0, 0], y)"], [f"y[:] = pl.{op}({args})"])


def gen_promotion():
    """Mixed dtypes: promote (§2.2, decision 3: FP16 with BF16 -> FP32) by exact casts, then the op."""
    specs = [("add", "FP16", "FP32"), ("sub", "FP32", "FP16"), ("mul", "FP16", "FP32"), ("div", "FP16", "FP32"),
             ("maximum", "FP32", "FP16"),
             ("add", "FP16", "BF16"), ("sub", "BF16", "FP16"), ("mul", "BF16", "FP16"), ("div", "FP16", "BF16"),
             ("add", "BF16", "FP32"),
             ("add", "INT16", "INT32"), ("mul", "INT8", "INT16"), ("sub", "INT8", "INT32"),
             ("add", "INT8", "FP16"), ("mul", "FP32", "INT16")]
    def promote(a, b):
        if a == b:
            return a
        if (a in FLOATS) != (b in FLOATS):
            return a if a in FLOATS else b
        if a in FLOATS and ELEM_BYTES[a] == ELEM_BYTES[b]:
            return "FP32"
        return a if ELEM_BYTES[a] > ELEM_BYTES[b] else b
    for op, da, db in specs:
        s = shp()
        a = rand_vals(da, s, (-6, 6))
        b = rand_vals(db, s, (-6, 6))
        if op == "div":
            b[b == 0] = 1.0
        dt = promote(da, db)
        y = binary_model(op, dt, a, b)      # the promotion casts are exact for these inputs
        Case(f"promote_{op}_{da.lower()}_{db.lower()}", [("a", da, s, a), ("b", db, s, b)], [("y", dt, s, y)],
             [f"pl.store(pl.{op}(ta, tb), [0, 0], y)"], [f"y[:] = pl.{op}(a, b)"])


def gen_shapes():
    """Other shapes: the smallest rows (32 bytes), odd row counts, one-row tiles; and tensor-level
    windows (slices with offsets, rows that are not a multiple of 32 bytes) read and written."""
    for op, dt, sh in (("add", "INT8", (3, 32)), ("mul", "FP32", (1, 8)), ("sub", "BF16", (5, 16)),
                       ("maximum", "FP16", (17, 16)), ("div", "FP32", (64, 8))):
        a, b = binary_inputs(op, dt, sh)
        Case(f"shape_{op}_{dt.lower()}_{sh[0]}x{sh[1]}", [("a", dt, sh, a), ("b", dt, sh, b)],
             [("y", dt, sh, binary_model(op, dt, a, b))],
             [f"pl.store(pl.{op}(ta, tb), [0, 0], y)"], [f"y[:] = pl.{op}(a, b)"])
    sh = (3, 8)
    x = unary_input("exp", "FP32", sh)
    x[~robust("FP32", np.exp(x))] = 0.5
    Case("shape_exp_fp32_3x8", [("x", "FP32", sh, x)], [("y", "FP32", sh, unary_model("exp", "FP32", x))],
         ["pl.store(pl.exp(tx), [0, 0], y)"], ["y[:] = pl.exp(x)"])
    sh = (5, 16)
    x = cast_input("FP32", "BF16", sh)
    Case("shape_cast_fp32_bf16_5x16", [("x", "FP32", sh, x)], [("y", "BF16", sh, cast_model("FP32", "BF16", x, "ceil"))],
         ["pl.store(pl.cast(tx, pl.BF16, mode=\"ceil\"), [0, 0], y)"], ["y[:] = pl.cast(x, pl.BF16, mode=\"ceil\")"])
    for op, dt, sh in (("sum", "FP32", (64, 8)), ("max", "FP16", (3, 16)), ("min", "INT32", (1, 8))):
        x = reduce_input(dt, sh, op)
        Case(f"shape_row_{op}_{dt.lower()}_{sh[0]}x{sh[1]}", [("x", dt, sh, x)], [("y", dt, (sh[0], 1), row_reduce(op, dt, x))],
             [f"tmp = pl.create_tile([{sh[0]}, {sh[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)",
              f"pl.store(pl.row_{op}(tx, tmp), [0, 0], y)"], [f"y[:] = pl.row_{op}(x)"])
        Case(f"shape_col_{op}_{dt.lower()}_{sh[0]}x{sh[1]}", [("x", dt, sh, x)], [("y", dt, (1, sh[1]), col_reduce(op, dt, x))],
             [f"pl.store(pl.col_{op}(tx), [0, 0], y)"], [f"y[:] = pl.col_{op}(x)"])
    # tensor-level windows: the rest of the Out tensor keeps its initial zeros
    S = (16, 64)
    for dt in ("FP16", "FP32", "INT8"):
        a, b = binary_inputs("mul", dt, S)
        y = np.zeros(S)
        y[4:16, 8:48] = binary_model("mul", dt, a[0:12, 16:56], b[4:16, 0:40])
        Case(f"window_mul_{dt.lower()}", [("a", dt, S, a), ("b", dt, S, b)], [("y", dt, S, y)], None,
             ["y[4:16, 8:48] = pl.mul(a[0:12, 16:56], b[4:16, 0:40])"])
    x = reduce_input("FP16", S, "sum")
    yr = np.zeros((16, 1))
    yr[2:14] = row_reduce("sum", "FP16", x[2:14, 4:44])
    yc = np.zeros((1, 64))
    yc[:, 8:48] = col_reduce("max", "FP16", x[0:12, 4:44])
    Case("window_reduce_fp16", [("x", "FP16", S, x)], [("y", "FP16", (16, 1), yr), ("z", "FP16", (1, 64), yc)], None,
         ["y[2:14, :] = pl.row_sum(x[2:14, 4:44])", "z[:, 8:48] = pl.col_max(x[0:12, 4:44])"])
    x = rand_float("FP32", S, -10, 10)
    m = rand_float("FP32", (16, 1), -10, 10)
    y = np.zeros(S)
    y[0:8, 24:64] = binary_model("sub", "FP32", x[8:16, 0:40], np.broadcast_to(m[8:16], (8, 40)))
    Case("window_bcast_sub_fp32", [("x", "FP32", S, x), ("m", "FP32", (16, 1), m)], [("y", "FP32", S, y)], None,
         ["y[0:8, 24:64] = pl.sub(x[8:16, 0:40], m[8:16, :])"])


def gen_errors():
    """Integer division by zero is a run-time error naming the op (decision 8): TOLERANCE 'error'
    means ptoc run must fail with 'integer division by zero' (no expected files)."""
    s = shp()
    a = rand_int("INT32", s, -1000, 1000)
    b = rand_int("INT32", s, 1, 50)
    b[3, 17] = 0
    Case("div_by_zero_int32", [("a", "INT32", s, a), ("b", "INT32", s, b)], [("y", "INT32", s, None)],
         ["pl.store(pl.div(ta, tb), [0, 0], y)"], ["y[:] = pl.div(a, b)"], tol="error")
    Case("divs_by_zero_int16", [("x", "INT16", s, rand_int("INT16", s))], [("y", "INT16", s, None)],
         ["pl.store(pl.div(tx, 0), [0, 0], y)"], ["y[:] = pl.div(x, 0)"], tol="error")
    v = rand_int("INT32", (s[0], 1), 1, 50)
    v[5, 0] = 0
    Case("row_expand_div_by_zero_int32", [("t", "INT32", s, a), ("v", "INT32", (s[0], 1), v)], [("y", "INT32", s, None)],
         ["pl.store(pl.row_expand_div(tt, tv), [0, 0], y)"], ["y[:] = pl.row_expand_div(t, v)"], tol="error")
    g = rand_int("INT32", (1, s[1]), 1, 50)
    g[0, 40] = 0
    Case("col_expand_div_by_zero_int32", [("t", "INT32", s, a), ("v", "INT32", (1, s[1]), g)], [("y", "INT32", s, None)],
         ["pl.store(pl.col_expand_div(tt, tv), [0, 0], y)"], ["y[:] = pl.col_expand_div(t, v)"], tol="error")


CMP_NAMES = ("eq", "ne", "lt", "le", "gt", "ge")
CMP_MODEL = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)


def packed_mask(bits):
    """The packed predicate mask (spec/ops.md §4.8): bit c % 8 (LSB first) of byte c / 8 of row r."""
    return np.packbits(bits, axis=1, bitorder="little").astype(np.float64)


def gen_cmp_sel():
    """cmp / cmps (every cmp_type) and sel, [8, 256] so the mask rows are exactly 32 bytes (no
    unwritten padding in the output); equal values and (floats) a NaN planted: every comparison
    with a NaN is false except ne."""
    s = (8, 256)
    ms = (8, 32)
    for dt in ("FP32", "FP16", "INT32", "INT16"):
        fl = dt in FLOATS
        a = rand_vals(dt, s, FP_EXP[dt] if fl else None, 100 if not fl else None)
        b = rand_vals(dt, s, FP_EXP[dt] if fl else None, 100 if not fl else None)
        b[:, ::3] = a[:, ::3]                                  # equal elements
        if fl:
            a[1, 5] = np.nan
            b[2, 9] = np.nan
        for mode, name in enumerate(CMP_NAMES):
            with np.errstate(invalid="ignore"):
                m = packed_mask(CMP_MODEL[mode](a, b))
                ms_ = packed_mask(CMP_MODEL[mode](a, 0.0))
            Case(f"cmp_{name}_{dt.lower()}", [("a", dt, s, a), ("b", dt, s, b)], [("m", "UINT8", ms, m)],
                 [f"pl.store(pl.cmp(ta, tb, cmp_type={mode}), [0, 0], m)"], [f"m[:] = pl.cmp(a, b, cmp_type={mode})"])
            Case(f"cmps_{name}_{dt.lower()}", [("a", dt, s, a)], [("m", "UINT8", ms, ms_)],
                 [f"pl.store(pl.cmp(ta, 0, cmp_type={mode}), [0, 0], m)"], [f"m[:] = pl.cmp(a, 0, cmp_type={mode})"])
        bits = RNG.integers(0, 256, ms).astype(np.float64)
        on = np.unpackbits(bits.astype(np.uint8), axis=1, bitorder="little").astype(bool)
        Case(f"sel_{dt.lower()}", [("k", "UINT8", ms, bits), ("a", dt, s, a), ("b", dt, s, b)], [("y", dt, s, np.where(on, a, b))],
             ["pl.store(pl.sel(tk, ta, tb), [0, 0], y)"], ["y[:] = pl.sel(k, a, b)"])
        sv = -3 if not fl else -0.5
        tmp = f"pl.create_tile([{s[0]}, {s[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)"
        Case(f"sels_{dt.lower()}", [("k", "UINT8", ms, bits), ("a", dt, s, a)], [("y", dt, s, np.where(on, a, float(sv)))],
             [f"pl.store(pl.sels(tk, ta, {tmp}, {sv}), [0, 0], y)"], [f"y[:] = pl.sels(k, a, {sv})"])
    # a compare feeding a select in one kernel: y = where(a > b, a, b * 0.5)
    a = rand_vals("FP32", s, FP_EXP["FP32"])
    b = rand_vals("FP32", s, FP_EXP["FP32"])
    Case("cmp_sel_chain_fp32", [("a", "FP32", s, a), ("b", "FP32", s, b)],
         [("y", "FP32", s, np.where(a > b, a, b * 0.5))],
         ["pl.store(pl.sel(pl.cmp(ta, tb, cmp_type=4), ta, pl.mul(tb, 0.5)), [0, 0], y)"],
         ["y[:] = pl.sel(pl.cmp(a, b, cmp_type=4), a, pl.mul(b, 0.5))"])


def gen_moves():
    """transpose (a copy; tile form with its scratch tile), transpose_view (the same bytes read
    transposed, tile level only) and concat, in FP32 / FP16 / INT32."""
    for dt, s in (("FP32", (16, 64)), ("FP16", (32, 64)), ("INT32", (8, 64))):
        x = rand_vals(dt, s, FP_EXP[dt] if dt in FLOATS else None)
        ts = (s[1], s[0])
        tmp = f"pl.create_tile([{ts[0]}, {ts[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)"
        Case(f"transpose_{dt.lower()}", [("x", dt, s, x)], [("y", dt, ts, x.T.copy())],
             [f"pl.store(pl.tile.transpose(tx, 0, 1, {tmp}), [0, 0], y)"], ["y[:] = pl.transpose(x, 0, 1)"])
        Case(f"transpose_view_{dt.lower()}", [("x", dt, s, x)], [("y", dt, ts, x.T.copy())],
             ["pl.store(pl.tile.transpose_view(tx), [0, 0], y)"], None)
        b = rand_vals(dt, (s[0], 32), FP_EXP[dt] if dt in FLOATS else None)
        Case(f"concat_{dt.lower()}", [("a", dt, s, x), ("b", dt, (s[0], 32), b)],
             [("y", dt, (s[0], s[1] + 32), np.concatenate([x, b], axis=1))],
             ["pl.store(pl.concat(ta, tb), [0, 0], y)"], ["y[:] = pl.concat(a, b)"])


def gen_ragged():
    """Tile level with a valid shape smaller than the tile: only the valid region is computed and
    stored; the rest of the Out tensor keeps its initial zeros."""
    S, V = (16, 64), (12, 40)

    def region(full, val):
        y = np.zeros(S)
        y[:V[0], :V[1]] = val[:V[0], :V[1]]
        return y

    for dt in ("FP32", "FP16", "INT8", "BF16"):
        a, b = rand_vals(dt, S, FP_EXP[dt] if dt in FLOATS else None), rand_vals(dt, S, FP_EXP[dt] if dt in FLOATS else None)
        Case(f"ragged_add_{dt.lower()}", [("a", dt, S, a), ("b", dt, S, b)],
             [("y", dt, S, region(S, binary_model("add", dt, a, b)))],
             ["pl.store(pl.add(ta, tb), [0, 0], y)"], None, loads={"a": (S, V), "b": (S, V)})
    x = rand_float("FP16", S, -6, 6)
    Case("ragged_muls_fp16", [("x", "FP16", S, x)], [("y", "FP16", S, region(S, binary_model("mul", "FP16", x, rne("FP16", np.full(S, 0.7)))))],
         ["pl.store(pl.mul(tx, 0.7), [0, 0], y)"], None, loads={"x": (S, V)})
    x = to_dtype("FP32", RNG.uniform(-10, 10, S))
    x[~robust("FP32", np.exp(x))] = 1.0                     # see gen_unary
    Case("ragged_exp_fp32", [("x", "FP32", S, x)], [("y", "FP32", S, region(S, unary_model("exp", "FP32", x)))],
         ["pl.store(pl.exp(tx), [0, 0], y)"], None, loads={"x": (S, V)})
    x = to_dtype("FP32", RNG.uniform(-100, 100, S))
    Case("ragged_cast_fp32_fp16", [("x", "FP32", S, x)], [("y", "FP16", S, region(S, cast_model("FP32", "FP16", x, "floor")))],
         ["pl.store(pl.cast(tx, pl.FP16, mode=\"floor\"), [0, 0], y)"], None, loads={"x": (S, V)})
    for dt in ("FP32", "FP16"):
        x = reduce_input(dt, S, "sum")
        xs = x[:V[0], :V[1]]
        for op in ("sum", "max", "min"):
            yr = np.zeros((S[0], 1))
            yr[:V[0]] = row_reduce(op, dt, xs)
            Case(f"ragged_row_{op}_{dt.lower()}", [("x", dt, S, x)], [("y", dt, (S[0], 1), yr)],
                 [f"tmp = pl.create_tile([{S[0]}, {S[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)",
                  f"pl.store(pl.row_{op}(tx, tmp), [0, 0], y)"], None, loads={"x": (S, V)})
            yc = np.zeros((1, S[1]))
            yc[:, :V[1]] = col_reduce(op, dt, xs)
            Case(f"ragged_col_{op}_{dt.lower()}", [("x", dt, S, x)], [("y", dt, (1, S[1]), yc)],
                 [f"pl.store(pl.col_{op}(tx), [0, 0], y)"], None, loads={"x": (S, V)})
    t = rand_float("FP32", S, -10, 10)
    v = rand_float("FP32", (S[0], 1), -10, 10)
    Case("ragged_row_expand_mul_fp32", [("t", "FP32", S, t), ("v", "FP32", (S[0], 1), v)],
         [("y", "FP32", S, region(S, binary_model("mul", "FP32", t, np.broadcast_to(v, S))))],
         ["pl.store(pl.row_expand_mul(tt, tv), [0, 0], y)"], None,
         loads={"t": (S, V), "v": ((S[0], 1), (V[0], 1))})
    g = rand_float("FP32", (1, S[1]), -10, 10)
    Case("ragged_col_expand_add_fp32", [("t", "FP32", S, t), ("v", "FP32", (1, S[1]), g)],
         [("y", "FP32", S, region(S, binary_model("add", "FP32", t, np.broadcast_to(g, S))))],
         ["pl.store(pl.col_expand_add(tt, tv), [0, 0], y)"], None,
         loads={"t": (S, V), "v": ((1, S[1]), (1, V[1]))})


# =============================================================================================
# reductions by product and by index, fillpad_expand / fillpad_inplace, tile slice and
# set_validshape, sin / cos (the vecred block; its own helpers, called from main after the rest)
#   * row_prod / col_prod: sequential left to right / top to bottom; FP16/BF16/FP32 accumulate in a
#     float32 running product (np.multiply.accumulate is sequential) rounded once to the element
#     type (ptoc's decision 5 for sums, applied to products); integers wrap.
#   * row/col_argmax/argmin: INT32 index of the first extreme (strictly better replaces the best so
#     far: ties -> first occurrence; a NaN first element keeps index 0, later NaNs are never chosen),
#     as pto-isa's TReduceIdx.
#   * fillpad_expand(x, [R', C'], pad): x's valid region top-left, the pad value elsewhere.
#   * slice(t, shape, offset[, valid_shape]): the window; its valid box is valid_shape or the shape.
#   * sin / cos: FP32 only, the exact float32 step sequence of spec/ops.md §4.3 (vecred_trig).
# =============================================================================================

def vecred_prod(dt, x, axis):
    """Product along axis (1: rows -> [R, 1], 0: columns -> [1, C])."""
    if dt in FLOATS:
        acc = np.multiply.accumulate(x.astype(np.float32), axis=axis, dtype=np.float32)
        last = acc[:, -1:] if axis == 1 else acc[-1:, :]
        return rne(dt, last.astype(np.float64))
    xi = x.astype(np.int64).astype(object)
    out = np.ones((x.shape[0], 1) if axis == 1 else (1, x.shape[1]), dtype=object)
    for r in range(x.shape[0]):
        for c in range(x.shape[1]):
            if axis == 1:
                out[r, 0] *= int(xi[r, c])
            else:
                out[0, c] *= int(xi[r, c])
    return wrap(dt, out).astype(np.float64)


def vecred_arg(x, axis, want_max):
    """Index of the first strictly-best element along axis (NaN compares false)."""
    lines = x if axis == 1 else x.T
    idx = []
    for line in lines:
        best = 0
        for j in range(1, len(line)):
            if (line[j] > line[best]) if want_max else (line[j] < line[best]):
                best = j
        idx.append(best)
    a = np.array(idx, dtype=np.float64)
    return a.reshape(-1, 1) if axis == 1 else a.reshape(1, -1)


def vecred_prod_input(dt, s):
    if dt in FLOATS:
        # magnitudes near 1 (no overflow over 64 terms), many binades of mantissa bits: an FP16 / BF16
        # accumulator would round differently from the FP32 one
        n = int(np.prod(s))
        v = np.exp2(RNG.uniform(-0.4, 0.4, n)) * np.where(RNG.random(n) < 0.5, -1.0, 1.0)
        return to_dtype(dt, v).reshape(s)
    return rand_int(dt, s, -9, 9)        # products wrap


def gen_vecred_prod():
    for dt in ("FP32", "FP16", "BF16", "INT32", "INT16"):
        s = shp()
        x = vecred_prod_input(dt, s)
        Case(f"row_prod_{dt.lower()}", [("x", dt, s, x)], [("y", dt, (s[0], 1), vecred_prod(dt, x, 1))],
             [f"tmp = pl.create_tile([{s[0]}, {s[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)",
              "pl.store(pl.row_prod(tx, tmp), [0, 0], y)"], ["y[:] = pl.row_prod(x)"])
        s2 = (16, 32)
        x2 = vecred_prod_input(dt, s2)
        Case(f"col_prod_{dt.lower()}", [("x", dt, s2, x2)], [("y", dt, (1, s2[1]), vecred_prod(dt, x2, 0))],
             ["pl.store(pl.col_prod(tx), [0, 0], y)"], ["y[:] = pl.col_prod(x)"])
    # ragged: only the valid region [6, 40] of [8, 64] is multiplied
    s, v = shp(), (6, 40)
    x = vecred_prod_input("FP32", s)
    yr = np.zeros((s[0], 1))
    yr[:v[0]] = vecred_prod("FP32", x[:v[0], :v[1]], 1)
    Case("ragged_row_prod_fp32", [("x", "FP32", s, x)], [("y", "FP32", (s[0], 1), yr)],
         [f"tmp = pl.create_tile([{s[0]}, {s[1]}], dtype=pl.FP32, target_memory=pl.Mem.Vec)",
          "pl.store(pl.row_prod(tx, tmp), [0, 0], y)"], None, loads={"x": (s, v)})


def gen_vecred_arg():
    for dt in ("FP32", "FP16", "BF16", "INT32", "INT16", "INT8"):
        s = shp()
        if dt in FLOATS:
            x = rand_float(dt, s, -4, 4)
        else:
            x = rand_int(dt, s, -20, 20)       # small range: many ties
        x[1, 5] = x[1, 40] = x[1].max() + (1 if dt not in FLOATS else 1.0)          # a tie of two maxima
        x[2, 7] = x[2, 50] = x[2].min() - 1                                          # a tie of two minima
        if dt in FLOATS:
            x[3, 0] = np.nan                   # NaN first: index 0 for both
            x[4, 9] = np.nan                   # NaN later: skipped
            x[10 % s[0], 3] = np.inf
        x = to_dtype(dt, x) if dt in FLOATS else np.clip(x, *INT_RANGE[dt])
        for op in ("argmax", "argmin"):
            want_max = op == "argmax"
            tmp = f"tmp = pl.create_tile([{s[0]}, {s[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)"
            Case(f"row_{op}_{dt.lower()}", [("x", dt, s, x)], [("y", "INT32", (s[0], 1), vecred_arg(x, 1, want_max))],
                 [tmp, f"pl.store(pl.row_{op}(tx, tmp), [0, 0], y)"], [f"y[:] = pl.row_{op}(x)"])
            xt = x.T.copy()
            ts = xt.shape
            tmp = f"tmp = pl.create_tile([{ts[0]}, {ts[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)"
            Case(f"col_{op}_{dt.lower()}", [("x", dt, ts, xt)], [("y", "INT32", (1, ts[1]), vecred_arg(xt, 0, want_max))],
                 [tmp, f"pl.store(pl.col_{op}(tx, tmp), [0, 0], y)"], [f"y[:] = pl.col_{op}(x)"])
    # ragged: the valid region [5, 24] only (a larger element outside it must not win)
    s, v = (16, 64), (5, 24)
    x = rand_float("FP32", s, -4, 4)
    x[:, 30] = 1e6
    x[10, :] = -1e6
    yr = np.zeros((s[0], 1))
    yr[:v[0]] = vecred_arg(x[:v[0], :v[1]], 1, True)
    Case("ragged_row_argmax_fp32", [("x", "FP32", s, x)], [("y", "INT32", (s[0], 1), yr)],
         [f"tmp = pl.create_tile([{s[0]}, {s[1]}], dtype=pl.FP32, target_memory=pl.Mem.Vec)",
          "pl.store(pl.row_argmax(tx, tmp), [0, 0], y)"], None, loads={"x": (s, v)})
    yc = np.zeros((1, s[1]))
    yc[:, :v[1]] = vecred_arg(x[:v[0], :v[1]], 0, False)
    Case("ragged_col_argmin_fp32", [("x", "FP32", s, x)], [("y", "INT32", (1, s[1]), yc)],
         [f"tmp = pl.create_tile([{s[0]}, {s[1]}], dtype=pl.FP32, target_memory=pl.Mem.Vec)",
          "pl.store(pl.col_argmin(tx, tmp), [0, 0], y)"], None, loads={"x": (s, v)})


def vecred_pad(dt, pad):
    if pad == "zero":
        return 0.0
    if dt in FLOATS:
        return np.inf if pad == "max" else -np.inf
    return float(INT_RANGE[dt][1] if pad == "max" else INT_RANGE[dt][0])


def gen_vecred_fillpad():
    s, v, big = (16, 64), (12, 40), (24, 96)
    for dt in ("FP32", "FP16", "BF16", "INT32", "INT16", "INT8"):
        for pad in ("zero", "max", "min"):
            x = rand_vals(dt, s)
            pv = vecred_pad(dt, pad)
            y = np.full(big, pv)
            y[:s[0], :s[1]] = x
            Case(f"fillpad_expand_{pad}_{dt.lower()}", [("x", dt, s, x)], [("y", dt, big, y)],
                 [f"pl.store(pl.fillpad_expand(tx, [{big[0]}, {big[1]}], pl.PadValue.{pad}), [0, 0], y)"],
                 [f"y[:] = pl.fillpad_expand(x, [{big[0]}, {big[1]}], pad_value=pl.PadValue.{pad})"])
            y2 = np.full(big, pv)
            y2[:v[0], :v[1]] = x[:v[0], :v[1]]
            Case(f"ragged_fillpad_expand_{pad}_{dt.lower()}", [("x", dt, s, x)], [("y", dt, big, y2)],
                 [f"pl.store(pl.fillpad_expand(tx, [{big[0]}, {big[1]}], pad_value=pl.PadValue.{pad}), [0, 0], y)"], None,
                 loads={"x": (s, v)})
            y3 = np.full(s, pv)
            y3[:v[0], :v[1]] = x[:v[0], :v[1]]
            Case(f"fillpad_inplace_{pad}_{dt.lower()}", [("x", dt, s, x)], [("y", dt, s, y3)],
                 [f"pl.store(pl.tile.fillpad_inplace(tx, pl.PadValue.{pad}), [0, 0], y)"], None, loads={"x": (s, v)})


def gen_vecred_slice():
    """Tile slices (views of the parent's bytes at its row pitch) and set_validshape, consumed by
    vector ops and stores; tile level only."""
    s = (16, 64)
    for dt in ("FP32", "FP16", "INT32"):
        x = rand_vals(dt, s, FP_EXP[dt] if dt in FLOATS else None, 1000)
        c0 = 32 // ELEM_BYTES[dt] * 2          # a column offset of two 32-byte blocks
        w = 16
        sl = x[3:11, c0:c0 + w]
        Case(f"slice_add_{dt.lower()}", [("x", dt, s, x)], [("y", dt, (8, w), binary_model("add", dt, sl, sl))],
             [f"sl = pl.slice(tx, [8, {w}], [3, {c0}])", "pl.store(pl.add(sl, sl), [0, 0], y)"], None)
        yr = row_reduce("max", dt, sl)
        Case(f"slice_row_max_{dt.lower()}", [("x", dt, s, x)], [("y", dt, (8, 1), yr)],
             [f"sl = pl.tile.slice(tx, [8, {w}], [3, {c0}])",
              f"tmp = pl.create_tile([8, {w}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)",
              "pl.store(pl.row_max(sl, tmp), [0, 0], y)"], None)
        # a slice stored as is, and a slice with a valid shape padded by fillpad
        y = np.zeros((8, w))
        y[:5, :w - 8] = sl[:5, :w - 8]
        Case(f"slice_store_valid_{dt.lower()}", [("x", dt, s, x)], [("y", dt, (8, w), y)],
             [f"sl = pl.slice(tx, [8, {w}], [3, {c0}], valid_shape=[5, {w - 8}])", "pl.store(sl, [0, 0], y)"], None)
        pv = vecred_pad(dt, "min")
        y = np.full((8, w), pv)
        y[:5, :w - 8] = sl[:5, :w - 8]
        Case(f"slice_fillpad_{dt.lower()}", [("x", dt, s, x)], [("y", dt, (8, w), y)],
             [f"sl = pl.slice(tx, [8, {w}], [3, {c0}], [5, {w - 8}])",
              "pl.store(pl.fillpad(sl, pad_value=pl.PadValue.min), [0, 0], y)"], None)
        # set_validshape on a Vec tile, then a reduction and a store of the narrowed tile
        yv = np.zeros((s[0], 1))
        yv[:5] = row_reduce("sum", dt, x[:5, :24]) if dt != "FP16" else row_reduce("max", dt, x[:5, :24])
        red = "row_sum" if dt != "FP16" else "row_max"
        Case(f"set_validshape_{red}_{dt.lower()}", [("x", dt, s, x)], [("y", dt, (s[0], 1), yv), ("z", dt, s, region_of(s, x, (5, 24)))],
             ["v = pl.set_validshape(tx, 5, 24)",
              f"tmp = pl.create_tile([{s[0]}, {s[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)",
              f"pl.store(pl.{red}(v, tmp), [0, 0], y)", "pl.store(v, [0, 0], z)"], None)
    # a slice of a slice, and two slices of one tile combined
    x = rand_float("FP32", s, -8, 8)
    inner = x[2:14, 8:56][4:8, 8:40]
    Case("slice_of_slice_fp32", [("x", "FP32", s, x)], [("y", "FP32", (4, 32), unary_model("abs", "FP32", inner))],
         ["a = pl.slice(tx, [12, 48], [2, 8])", "b = pl.slice(a, [4, 32], [4, 8])", "pl.store(pl.abs(b), [0, 0], y)"], None)
    Case("slice_two_halves_fp32", [("x", "FP32", s, x)],
         [("y", "FP32", (16, 32), binary_model("sub", "FP32", x[:, :32], x[:, 32:]))],
         ["l = pl.slice(tx, [16, 32], [0, 0])", "r = pl.slice(tx, [16, 32], [0, 32])", "pl.store(pl.sub(l, r), [0, 0], y)"], None)


def region_of(shape, x, v):
    y = np.zeros(shape)
    y[:v[0], :v[1]] = x[:v[0], :v[1]]
    return y


def vecred_cast_int(p, mode):
    """float32 -> INT32 with mode round (ties away) / rint / floor, saturating; as float32."""
    p = p.astype(np.float64)
    if mode == "round":
        r = np.sign(p) * np.floor(np.abs(p) + 0.5)          # exact in float64 for a float32 p
    elif mode == "rint":
        r = np.rint(p)
    else:
        r = np.floor(p)
    r = np.clip(r, -2.0 ** 31, 2.0 ** 31 - 1)
    return r.astype(np.float32)          # INT32 -> FP32 rounds to nearest even (rint)


def vecred_trig(x, cos):
    """spec/ops.md §4.3, every step one float32 operation (numpy rounds each to nearest even)."""
    f = np.float32
    x = x.astype(np.float32)
    p = x * f(0.31830988732818603515625)
    k = vecred_cast_int(p + f(0.5), "rint") if cos else vecred_cast_int(p, "round")
    t = x - k * f(3.140625)
    t = t - k * f(0.0009670257568359375)
    if cos:
        t = t + f(1.57079637050628662109375)
    t = t - k * f(6.2771141529083251953125e-7)
    t = t - k * f(1.21644916362129151821e-10)
    t = t - k * f(-1.0290623200529979163e-13)
    if cos:
        t = t + f(-4.371139000189375e-8)
    fl = vecred_cast_int(k * f(0.5), "floor")
    sign = fl * f(4.0) - k * f(2.0)
    sign = sign + f(1.0)
    u = t * t
    poly = u * f(2.604926501e-6)
    poly = poly + f(-1.980894471e-4)
    poly = poly * u
    poly = poly + f(8.333049340e-3)
    poly = poly * u
    poly = poly + f(-1.666665792e-1)
    poly = poly * u
    poly = poly + f(1.0)
    return (sign * (t * poly)).astype(np.float64)


def gen_vecred_trig():
    s = shp()
    x = to_dtype("FP32", RNG.uniform(-40, 40, s))
    x = plant(x, [0.0, -0.0, math.pi, -math.pi / 2, 0.5, 1.5, 2.5, -2.5, 1e4, -123.456])
    x = to_dtype("FP32", x)
    for op in ("sin", "cos"):
        y = vecred_trig(x, op == "cos")
        ref = np.sin(x) if op == "sin" else np.cos(x)
        assert np.max(np.abs(y - ref)[np.abs(x) < 100]) < 1e-5, f"{op}: the step sequence is not {op}"
        Case(f"{op}_fp32", [("x", "FP32", s, x)], [("y", "FP32", s, y)],
             [f"pl.store(pl.{op}(tx), [0, 0], y)"], [f"y[:] = pl.{op}(x)"])


# ---------------------------------------------------------------------------------------------
# the examples: numpy float64 references, tolerances from the per-op rounding (FP32 unit roundoff
# u = 2^-24 ~ 6.0e-8, FP16 u = 2^-11 ~ 4.9e-4); TOL per output is "exact" or "atol:rtol"
# (|got - ref| <= atol + rtol * |ref|)
# ---------------------------------------------------------------------------------------------

EXAMPLES = []


def example(name, prog, inputs, outputs):
    """inputs: [(param, dtype, array)]; outputs: [(param, dtype, reference float64 array, tol)]."""
    EXAMPLES.append((name, prog, inputs, outputs))


def softmax64(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def gen_examples():
    # softmax_tile [64, 64] FP32, x in [-4, 4): max exact; x - m (|.| <= 8) rounds once (abs err
    # <= 8u in the exponent -> rel 8u), exp rounds once (u), 64-term sequential sum of positive
    # terms (<= 63u relative), division (u): relative error <= ~75u = 4.5e-6 -> rtol 1e-5.
    x = to_dtype("FP32", RNG.uniform(-4, 4, (64, 64)))
    example("ex_softmax_tile", "examples/softmax_tile.py", [("a", "FP32", x)],
            [("out", "FP32", softmax64(x), "0:1e-5")])
    # softmax_rows [128, 256] FP16 in/out, the softmax itself in FP32 (error ~ 300u32 = 2e-5
    # relative, far below FP16's), then one FP16 rounding (mode round). The expected file holds the
    # float64 reference rounded to FP16, so the two FP16 values differ by at most one FP16 ulp:
    # 2^-10 relative (rtol 9.8e-4) for normal results, 2^-24 absolute (atol 6e-8) among the
    # subnormals (results go down to ~e^-2/256).
    x = to_dtype("FP16", RNG.uniform(-1, 1, (128, 256)))
    example("ex_softmax_rows", "examples/softmax_rows.py", [("x", "FP16", x)],
            [("y", "FP16", softmax64(x), "6e-8:9.8e-4")])
    # rms_norm [32, 128] FP32: x*x (u), 128-term sum of positive terms (127u), *1/128 exact,
    # + 1e-6 (u), rsqrt (u; halves the relative error of its argument), two products (2u):
    # relative <= 64u + 4u ~ 4.1e-6 -> rtol 1e-5.
    x = to_dtype("FP32", RNG.uniform(-2, 2, (32, 128)))
    g = to_dtype("FP32", RNG.uniform(0.5, 1.5, (1, 128)))
    ref = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * g
    example("ex_rms_norm", "examples/rms_norm.py", [("x", "FP32", x), ("gamma", "FP32", g)],
            [("y", "FP32", ref, "0:1e-5")])
    # layer_norm [16, 256] FP32, x in [-1, 1): the mean is a 256-term sum of mixed signs, abs error
    # <= 255u * sum|x| / 256 <= 1.5e-5 worst case; it enters x - mean absolutely, is scaled by
    # rstd (~1.7) and gamma (<= 1.5): abs <= ~4e-5 worst case, plus a few u relative on the rest:
    # atol 5e-5, rtol 1e-5.
    x = to_dtype("FP32", RNG.uniform(-1, 1, (16, 256)))
    g = to_dtype("FP32", RNG.uniform(0.5, 1.5, (1, 256)))
    b = to_dtype("FP32", RNG.uniform(-1, 1, (1, 256)))
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    ref = (x - mean) / np.sqrt(var + 0.00001) * g + b
    example("ex_layer_norm", "examples/layer_norm.py", [("x", "FP32", x), ("gamma", "FP32", g), ("beta", "FP32", b)],
            [("y", "FP32", ref, "5e-5:1e-5")])
    # activations [32, 64] FP32, x in [-8, 8): relu is exact; sigmoid = recip(exp(-x) + 1): exp (u),
    # + 1 (u), recip (u) -> <= 3u relative; inv_exp = recip(exp(x)): 2u -> rtol 1e-6 for both.
    x = to_dtype("FP32", RNG.uniform(-8, 8, (32, 64)))
    example("ex_activations", "examples/activations.py", [("x", "FP32", x)],
            [("relu", "FP32", np.maximum(x, 0), "exact"), ("sigmoid", "FP32", 1 / (1 + np.exp(-x)), "0:1e-6"),
             ("inv_exp", "FP32", np.exp(-x), "0:1e-6")])
    # reductions [16, 64] FP16, x in [-1, 1): max/min are exact; sums accumulate in FP32
    # (abs <= 63u32 * 64 = 2.4e-4 worst case over 64 terms, 15u32 * 16 for the columns) and round
    # once to FP16 (half an ulp, 2^-11 relative), the expected file is the float64 sum rounded to
    # FP16 (another half ulp): atol 2.5e-4, rtol 2^-10 -> 9.8e-4.
    x = to_dtype("FP16", RNG.uniform(-1, 1, (16, 64)))
    example("ex_reductions", "examples/reductions.py", [("x", "FP16", x)],
            [("rsum", "FP16", x.sum(axis=1, keepdims=True), "2.5e-4:9.8e-4"),
             ("rmax", "FP16", x.max(axis=1, keepdims=True), "exact"),
             ("rmin", "FP16", x.min(axis=1, keepdims=True), "exact"),
             ("csum", "FP16", x.sum(axis=0, keepdims=True), "2.5e-4:9.8e-4"),
             ("cmax", "FP16", x.max(axis=0, keepdims=True), "exact"),
             ("cmin", "FP16", x.min(axis=0, keepdims=True), "exact")])
    # scalar_chain [64, 32] FP32, x in [-6, 6) so both clamps act: + 1.5 (u), * 2 exact, - 0.5 (u),
    # / 4 exact; max/min exact: abs <= 2u * (|x| + 2) / 2 ~ 5e-7 -> atol 1e-6, rtol 0.
    x = to_dtype("FP32", RNG.uniform(-6, 6, (64, 32)))
    example("ex_scalar_chain", "examples/scalar_chain.py", [("x", "FP32", x)],
            [("y", "FP32", np.minimum(np.maximum(((x + 1.5) * 2 - 0.5) / 4, -1), 3), "1e-6:0")])
    # casts [16, 64] FP32: single conversions, modelled exactly (exact rational rounding), with ties
    # planted: FP16 round (ties away), BF16 rint, INT32 floor of x * 8 (x * 8 exact), back to FP32.
    x = to_dtype("FP32", RNG.uniform(-1, 1, (16, 64)))
    x = plant(x, list(ties_in("FP16", -10, 0, 32)) + list(ties_in("BF16", -10, 0, 32)) + [-0.3125, 0.3125, -0.0625])
    x8 = cast_model("FP32", "INT32", x * 8, "floor")
    example("ex_casts", "examples/casts.py", [("x", "FP32", x)],
            [("h", "FP16", cast_model("FP32", "FP16", x, "round"), "exact"),
             ("b", "BF16", cast_model("FP32", "BF16", x, "rint"), "exact"),
             ("i", "INT32", x8, "exact"), ("f", "FP32", x8, "exact")])
    # matmul_softmax: q [64, 128], k [128, 64] FP16 holding multiples of 1/8 in [-1, 1]: every
    # product is a multiple of 1/64 and every partial sum (|.| <= 128) is exact in FP32, so the
    # scores are exact whatever the accumulation order; then a softmax as softmax_tile (|s - max|
    # up to ~60: exponent argument abs err <= 60u -> rel 60u; + 64u for the sum, ...):
    # rtol 1e-5 for results above FP32's normal range; the exps of very negative arguments can
    # underflow to FP32 subnormals: atol 1e-40.
    q = RNG.integers(-8, 9, (64, 128)) / 8.0
    k = RNG.integers(-8, 9, (128, 64)) / 8.0
    example("ex_matmul_softmax", "examples/matmul_softmax.py", [("q", "FP16", q), ("k", "FP16", k)],
            [("p", "FP32", softmax64(q @ k), "1e-40:1e-5")])


def write_examples():
    lines = ["# generated by gen_vec_cases.py: NAME PROGRAM INPUTS OUTPUTS TOLERANCES (per output: exact or atol:rtol)"]
    for name, prog, inputs, outputs in EXAMPLES:
        for p, dt, x in inputs:
            np.save(os.path.join(DATA_DIR, f"{name}.{p}.npy"), npy_array(dt, x))
        for p, dt, ref, tol in outputs:
            if dt in FLOATS and tol != "exact":
                ref = rne(dt, ref)           # nearest representable reference (within the tolerance)
            np.save(os.path.join(DATA_DIR, f"{name}.{p}.expect.npy"), npy_array(dt, ref))
        lines.append(f"{name} {prog} {','.join(p for p, _, _ in inputs)} {','.join(o[0] for o in outputs)} "
                     f"{','.join(o[3] for o in outputs)}")
    with open(os.path.join(HERE, "examples.list"), "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------------
# remainder, bitwise, leaky relu, partial and exp-difference ops (docs/vector.md)
# ---------------------------------------------------------------------------------------------
# Models (pto-isa ElementOp.h / TPartOp.hpp, spec/ops.md §4.1-§4.3, §4.7):
#   fmod  float: math.fmod (exact) -> the dt value; integer: truncated remainder (C %)
#   rem   r = fmod; when (a >= 0) != (b >= 0) and r != 0: r + b rounded once to dt (floor modulo)
#   and/or/xor/shl/shr on two's-complement bits wrapped to dt; shr arithmetic for signed types
#   not_  ~x wrapped;  lrelu/prelu  x > 0 ? x : x * slope rounded once (slope first rounded to dt)
#   expdif  exp(rne(dt, t - v)) rounded once;  part_*  union of the valid boxes: both -> op, one ->
#   copy, neither -> 0 (the tile loads of the part cases have different valid shapes)

BIT_INTS = ("INT32", "INT16", "INT8", "UINT8", "UINT16")
ELEM_BYTES.update({"UINT8": 1, "UINT16": 2})


def bits_ints(dt, shape, lo=None, hi=None):
    return rand_int(dt, shape, lo, hi)


def fmod_model(dt, a, b, floor):
    if dt in FLOATS:
        r = np.fmod(a, b)                        # exact (fmod of two dt values is a dt value)
        if floor:
            fix = ((a >= 0) != (b >= 0)) & (r != 0)
            r = np.where(fix, rne(dt, r + b), r)
        return r
    ai, bi = a.astype(np.int64), b.astype(np.int64)
    r = np.sign(ai) * (np.abs(ai) % np.abs(bi))  # C %: truncated, sign of the dividend
    if floor:
        r = np.where(((ai >= 0) != (bi >= 0)) & (r != 0), r + bi, r)
    return wrap(dt, r).astype(np.float64)


def bit_model(op, dt, a, b):
    ai, bi = a.astype(np.int64), b.astype(np.int64)
    if op == "and_":
        r = ai & bi
    elif op == "or_":
        r = ai | bi
    elif op == "xor":
        r = ai ^ bi
    elif op == "shl":
        r = ai << bi                              # int64: no overflow for < 32-bit values and counts < 32
    elif op == "shr":
        r = ai >> bi                              # numpy >> on int64 is arithmetic
    else:
        r = ~ai
    return wrap(dt, r).astype(np.float64)


def tmp_tile(dt, s):
    return f"tmp = pl.create_tile([{s[0]}, {s[1]}], dtype=pl.{dt}, target_memory=pl.Mem.Vec)"


def gen_bits():
    R, C = 8, 64
    s = (R, C)
    # fmod / rem (tile-tile) and fmods / rems (scalar), every dtype
    for dt in FLOATS + INTS + ("UINT8", "UINT16"):
        fl = dt in FLOATS
        a = rand_vals(dt, s, FP_EXP[dt]) if fl else bits_ints(dt, s)
        b = rand_vals(dt, s, FP_EXP[dt]) if fl else bits_ints(dt, s, 1 if dt.startswith("U") else -100, 100)
        if fl:
            b[b == 0] = 0.75
            b = plant(b, [0.0] if dt == "FP32" else [])        # float x % 0 = NaN (IEEE)
        else:
            b[b == 0] = 3
        if not dt.startswith("U") and not fl:
            a = plant(a, [INT_RANGE[dt][0], INT_RANGE[dt][0]])
            b = plant(b, [-1, 7])                               # INT_MIN % -1 = 0
        for op, floor in (("fmod", False), ("rem", True)):
            y = fmod_model(dt, a, b, floor)
            tile = [tmp_tile(dt, s), f"pl.store(pl.rem(ta, tb, tmp), [0, 0], y)"] if floor else \
                   [f"pl.store(pl.fmod(ta, tb), [0, 0], y)"]
            Case(f"{op}_{dt.lower()}", [("a", dt, s, a), ("b", dt, s, b)], [("y", dt, s, y)], tile, [f"y[:] = pl.{op}(a, b)"])
    for dt, sv in (("FP32", "0.7"), ("FP16", "-2.5"), ("INT32", "-7"), ("INT8", "5"), ("UINT8", "9")):
        fl = dt in FLOATS
        a = rand_vals(dt, s, FP_EXP[dt]) if fl else bits_ints(dt, s)
        sc = rne(dt, np.full(s, float(sv))) if fl else np.full(s, float(sv))
        for op, floor in (("fmods", False), ("rems", True)):
            y = fmod_model(dt, a, sc, floor)
            tile = [tmp_tile(dt, s), f"pl.store(pl.rems(ta, {sv}, tmp), [0, 0], y)"] if floor else \
                   [f"pl.store(pl.fmods(ta, {sv}), [0, 0], y)"]
            Case(f"{op}_{dt.lower()}", [("a", dt, s, a)], [("y", dt, s, y)], tile, [f"y[:] = pl.{op}(a, {sv})"])
    # bitwise and shifts
    for dt in BIT_INTS:
        bits = 8 * ELEM_BYTES[dt]
        a, b = bits_ints(dt, s), bits_ints(dt, s)
        cnt = bits_ints(dt, s, 0, bits - 1)
        for op in ("and_", "or_", "xor", "shl", "shr"):
            rhs = cnt if op in ("shl", "shr") else b
            y = bit_model(op, dt, a, rhs)
            call = "pl.xor(ta, tb, tmp)" if op == "xor" else f"pl.{op}(ta, tb)"
            tile = ([tmp_tile(dt, s)] if op == "xor" else []) + [f"pl.store({call}, [0, 0], y)"]
            Case(f"{op.rstrip('_')}_{dt.lower()}", [("a", dt, s, a), ("b", dt, s, rhs)], [("y", dt, s, y)], tile,
                 [f"y[:] = pl.{op}(a, b)"])
    for dt, sv, k in (("INT32", 0x0F0F0F0F, 31), ("INT16", 0x00FF, 3), ("UINT8", 0x3C, 7), ("UINT16", 0xF00F, 15)):
        a = bits_ints(dt, s)
        sc = np.full(s, float(sv))
        for op, bop in (("ands", "and_"), ("ors", "or_"), ("xors", "xor")):
            y = bit_model(bop, dt, a, sc)
            tile = [tmp_tile(dt, s), f"pl.store(pl.xors(ta, {sv}, tmp), [0, 0], y)"] if op == "xors" else \
                   [f"pl.store(pl.{op}(ta, {sv}), [0, 0], y)"]
            Case(f"{op}_{dt.lower()}", [("a", dt, s, a)], [("y", dt, s, y)], tile, [f"y[:] = pl.{op}(a, {sv})"])
        for op, bop in (("shls", "shl"), ("shrs", "shr")):
            y = bit_model(bop, dt, a, np.full(s, float(k)))
            Case(f"{op}_{dt.lower()}", [("a", dt, s, a)], [("y", dt, s, y)], [f"pl.store(pl.{op}(ta, {k}), [0, 0], y)"],
                 [f"y[:] = pl.{op}(a, {k})"])
    # the scalar form through the unified name: pl.and_(t, s) -> ands
    a = bits_ints("INT32", s)
    Case("and_scalar_int32", [("a", "INT32", s, a)], [("y", "INT32", s, bit_model("and_", "INT32", a, np.full(s, 255.0)))],
         ["pl.store(pl.and_(ta, 255), [0, 0], y)"], ["y[:] = pl.and_(a, 255)"])
    for dt in ("INT16", "UINT16"):
        a = plant(bits_ints(dt, s), [0, INT_RANGE[dt][0], INT_RANGE[dt][1]])
        Case(f"not_{dt.lower()}", [("a", dt, s, a)], [("y", dt, s, bit_model("not_", dt, a, a))],
             ["pl.store(pl.not_(ta), [0, 0], y)"], ["y[:] = pl.not_(a)"])
    # lrelu (tile and tensor) and prelu (tile only; UINT8 scratch of R + 1 rows)
    for dt in FLOATS:
        x = plant(rand_vals(dt, s, FP_EXP[dt]), [0.0, -0.0])
        slope = float(rne(dt, np.array([0.1]))[0])
        y = np.where(x > 0, x, rne(dt, x * slope))
        Case(f"lrelu_{dt.lower()}", [("x", dt, s, x)], [("y", dt, s, y)], ["pl.store(pl.lrelu(tx, 0.1), [0, 0], y)"],
             ["y[:] = pl.lrelu(x, 0.1)"])
        w = rand_vals(dt, s, (-4, 2))
        Case(f"prelu_{dt.lower()}", [("x", dt, s, x), ("w", dt, s, w)], [("y", dt, s, np.where(x > 0, x, rne(dt, x * w)))],
             [f"tmp = pl.create_tile([{R + 1}, 32], dtype=pl.UINT8, target_memory=pl.Mem.Vec)",
              "pl.store(pl.prelu(tx, tw, tmp), [0, 0], y)"], None)
    # row / col expand expdif: exp(t - v), the difference rounded to dt first
    for dt in FLOATS:
        for fam in ("row", "col"):
            vs = (R, 1) if fam == "row" else (1, C)
            t = rand_vals(dt, s, (-4, 3))
            v = rand_vals(dt, vs, (-4, 3))
            d = rne(dt, t - np.broadcast_to(v, s))
            ok = robust(dt, np.exp(d))
            t[~ok] = np.broadcast_to(v, s)[~ok]                # exp(0) = 1 where the rounding is close
            d = rne(dt, t - np.broadcast_to(v, s))
            Case(f"{fam}_expand_expdif_{dt.lower()}", [("t", dt, s, t), ("v", dt, vs, v)], [("y", dt, s, rne(dt, np.exp(d)))],
                 [f"pl.store(pl.{fam}_expand_expdif(tt, tv), [0, 0], y)"], [f"y[:] = pl.{fam}_expand_expdif(t, v)"])
    # part_*: tile loads with different valid shapes ([6, 40] and [8, 24] of [8, 64]); the union is
    # [8, 40]; the tensor form combines the whole tensors
    VA, VB = (6, 40), (8, 24)
    U = (max(VA[0], VB[0]), max(VA[1], VB[1]))
    models = {"part_add": lambda dt, a, b: binary_model("add", dt, a, b), "part_mul": lambda dt, a, b: binary_model("mul", dt, a, b),
              "part_max": lambda dt, a, b: std_max(a, b), "part_min": lambda dt, a, b: std_min(a, b)}
    for op, f in models.items():
        for dt in ("FP32", "FP16", "BF16", "INT32", "INT16", "INT8", "UINT8"):
            fl = dt in FLOATS
            a = rand_vals(dt, s, FP_EXP[dt]) if fl else bits_ints(dt, s)
            b = rand_vals(dt, s, FP_EXP[dt]) if fl else bits_ints(dt, s)
            both = f(dt, a, b)
            ina = np.zeros(s, bool)
            ina[:VA[0], :VA[1]] = True
            inb = np.zeros(s, bool)
            inb[:VB[0], :VB[1]] = True
            y = np.where(ina & inb, both, np.where(ina, a, np.where(inb, b, 0.0)))
            y[U[0]:, :] = 0
            y[:, U[1]:] = 0
            Case(f"{op}_{dt.lower()}", [("a", dt, s, a), ("b", dt, s, b)], [("y", dt, s, y)],
                 [f"pl.store(pl.{op}(ta, tb), [0, 0], y)"], None, loads={"a": (s, VA), "b": (s, VB)})
            if dt in ("FP16", "INT8"):
                Case(f"{op}_tensor_{dt.lower()}", [("a", dt, s, a), ("b", dt, s, b)], [("y", dt, s, both)], None,
                     [f"y[:] = pl.{op}(a, b)"])
    # integer fmod / rems by zero: run-time errors naming the op
    a = bits_ints("INT32", s, -1000, 1000)
    b = bits_ints("INT32", s, 1, 50)
    b[2, 9] = 0
    Case("fmod_by_zero_int32", [("a", "INT32", s, a), ("b", "INT32", s, b)], [("y", "INT32", s, None)],
         ["pl.store(pl.fmod(ta, tb), [0, 0], y)"], ["y[:] = pl.fmod(a, b)"], tol="error")
    Case("rems_by_zero_uint8", [("a", "UINT8", s, bits_ints("UINT8", s))], [("y", "UINT8", s, None)],
         [tmp_tile("UINT8", s), "pl.store(pl.rems(ta, 0, tmp), [0, 0], y)"], ["y[:] = pl.rems(a, 0)"], tol="error")


def main():
    self_check()
    gen_binary()
    gen_scalar()
    gen_unary()
    gen_cast()
    gen_fills()
    gen_reductions()
    gen_expand()
    gen_broadcast()
    gen_promotion()
    gen_ragged()
    gen_shapes()
    gen_errors()
    gen_examples()
    gen_cmp_sel()
    gen_moves()
    gen_bits()
    gen_vecred_prod()
    gen_vecred_arg()
    gen_vecred_fillpad()
    gen_vecred_slice()
    gen_vecred_trig()
    write_all()
    write_examples()
    nprog = sum((c.tile_body is not None) + (c.tensor_body is not None) for c in CASES)
    print(f"{len(CASES)} cases, {nprog} programs written to {CASES_DIR} and {DATA_DIR}")


if __name__ == "__main__":
    sys.exit(main())
