/* numeric: IEEE binary16 and bfloat16 conversions, round to nearest even (as FIXPIPE narrows). */
#include "base/base.h"
#include "base/dtype.h"

#include <math.h>
#include <string.h>

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

float fp16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f) return u2f(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        if (man == 0) return u2f(sign);
        float v = (float)man * (1.0f / 16777216.0f);   /* man * 2^-24 */
        return sign ? -v : v;
    }
    return u2f(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t f32_to_fp16(float f) {
    uint32_t u = f2u(f), sign = (u >> 16) & 0x8000;
    uint32_t a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) return (uint16_t)(sign | 0x7c00 | (a > 0x7f800000u ? 0x200 : 0));
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00);           /* rounds to >= 65520: inf */
    if (a < 0x38800000u) {                                              /* subnormal or zero in half */
        float v = u2f(a) * 16777216.0f;                                 /* scale by 2^24: exact */
        /* round half to even on the integer mantissa */
        uint32_t m = (uint32_t)v;
        float frac = v - (float)m;
        if (frac > 0.5f || (frac == 0.5f && (m & 1))) m++;
        return (uint16_t)(sign | m);
    }
    uint32_t exp = (a >> 23) - 112, man = a & 0x7fffff;
    uint32_t h = (exp << 10) | (man >> 13);
    uint32_t rem = man & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

float bf16_to_f32(uint16_t h) { return u2f((uint32_t)h << 16); }

uint16_t f32_to_bf16(float f) {
    uint32_t u = f2u(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
    uint32_t rounding = 0x7fff + ((u >> 16) & 1);
    return (uint16_t)((u + rounding) >> 16);
}

/* double -> float rounded to odd (truncate, then set the last bit if inexact): a following
 * round-to-nearest-even to FP16/BF16 then rounds exactly as a single rounding from v would. */
static float f64_to_f32_round_odd(double v) {
    float f = (float)v;
    if ((double)f == v || f != f || isinf(f)) return f;
    if (fabs((double)f) > fabs(v)) f = nextafterf(f, 0.0f);
    return u2f(f2u(f) | 1);
}

double dtype_round_float(DType t, double v) {
    switch (t) {
    case DT_FP16: return fp16_to_f32(f32_to_fp16(f64_to_f32_round_odd(v)));
    case DT_BF16: return bf16_to_f32(f32_to_bf16(f64_to_f32_round_odd(v)));
    default: return (double)(float)v;
    }
}

double dtype_read(DType t, const void *vp) {
    const uint8_t *p = vp;
    switch (t) {
    case DT_FP16: { uint16_t h; memcpy(&h, p, 2); return fp16_to_f32(h); }
    case DT_BF16: { uint16_t h; memcpy(&h, p, 2); return bf16_to_f32(h); }
    case DT_FP32: { float f; memcpy(&f, p, 4); return f; }
    case DT_BOOL: return p[0] != 0;
    case DT_INT8: return (int8_t)p[0];
    case DT_UINT8: return p[0];
    case DT_INT16: { int16_t x; memcpy(&x, p, 2); return x; }
    case DT_UINT16: { uint16_t x; memcpy(&x, p, 2); return x; }
    case DT_INT32: { int32_t x; memcpy(&x, p, 4); return x; }
    case DT_UINT32: { uint32_t x; memcpy(&x, p, 4); return x; }
    case DT_INT64: case DT_INDEX: { int64_t x; memcpy(&x, p, 8); return (double)x; }
    case DT_UINT64: { uint64_t x; memcpy(&x, p, 8); return (double)x; }
    default: return 0.0;
    }
}

int64_t dtype_read_int(DType t, const void *p) {
    int64_t v;
    if (t == DT_INT64 || t == DT_INDEX || t == DT_UINT64) { memcpy(&v, p, 8); return v; }
    return (int64_t)dtype_read(t, p);
}

int64_t floordiv_i64(int64_t a, int64_t b) {
    if (b == -1) return (int64_t)(0 - (uint64_t)a);
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t floormod_i64(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a - (uint64_t)floordiv_i64(a, b) * (uint64_t)b);
}

/* ---- conversions with a rounding mode (vector cast, spec/ops.md §4.4 and decision 6) ---- */

/* The float-dtype neighbour of x (a value of dtype t) one ulp away in direction dir (+1 / -1). */
static double float_step(DType t, double x, int dir) {
    if (t == DT_FP32) return nextafterf((float)x, dir > 0 ? INFINITY : -INFINITY);
    uint16_t h = t == DT_FP16 ? f32_to_fp16((float)x) : f32_to_bf16((float)x);
    uint16_t sign = h & 0x8000, mag = h & 0x7fff;
    if (mag == 0) {                                           /* from zero: the smallest subnormal */
        h = (uint16_t)(dir > 0 ? 0x0001 : 0x8001);
    } else if ((dir > 0) == (sign == 0)) h = (uint16_t)(h + 1);   /* away from zero */
    else h = (uint16_t)(h - 1);
    return t == DT_FP16 ? fp16_to_f32(h) : bf16_to_f32(h);
}

static bool float_lsb_odd(DType t, double x) {
    if (t == DT_FP32) { float f = (float)x; return f2u(f) & 1; }
    uint16_t h = t == DT_FP16 ? f32_to_fp16((float)x) : f32_to_bf16((float)x);
    return h & 1;
}

static double round_to_float(DType t, double v, int mode) {
    double r = dtype_round_float(t, v);               /* nearest, ties to even */
    if (r == v || v != v || mode == DT_ROUND_RINT || mode == DT_ROUND_NONE) return r;
    if (isinf(r) && !isinf(v)) {                       /* overflowed: the largest finite is the other side */
        double big = float_step(t, r, r > 0 ? -1 : 1);
        double lo = r > 0 ? big : r, hi = r > 0 ? r : big;
        switch (mode) {
        case DT_ROUND_FLOOR: return lo;
        case DT_ROUND_CEIL: return hi;
        case DT_ROUND_TRUNC: return v > 0 ? lo : hi;
        case DT_ROUND_ODD: return big;                  /* the largest finite has an odd significand */
        default: return r;
        }
    }
    double lo = r < v ? r : float_step(t, r, -1), hi = r > v ? r : float_step(t, r, 1);
    switch (mode) {
    case DT_ROUND_FLOOR: return lo;
    case DT_ROUND_CEIL: return hi;
    case DT_ROUND_TRUNC: return v > 0 ? lo : hi;
    case DT_ROUND_ROUND:
    case DT_ROUND_ODD: {
        double dl = v - lo, dh = hi - v;
        if (dl != dh) return dl < dh ? lo : hi;
        if (mode == DT_ROUND_ROUND) return v > 0 ? hi : lo;  /* ties away from zero */
        return float_lsb_odd(t, lo) ? lo : hi;               /* ties to the odd neighbour */
    }
    default: return r;
    }
}

static double round_to_integer(double v, int mode) {
    switch (mode) {
    case DT_ROUND_RINT: return nearbyint(v);
    case DT_ROUND_ROUND: return round(v);
    case DT_ROUND_FLOOR: return floor(v);
    case DT_ROUND_CEIL: return ceil(v);
    case DT_ROUND_ODD: {
        double f = floor(v), d = v - f;
        if (d != 0.5) return d < 0.5 ? f : f + 1;
        return fmod(f, 2.0) != 0 ? f : f + 1;
    }
    default: return trunc(v);                          /* NONE, TRUNC: the C conversion */
    }
}

static double wrap_int(DType to, double v) {
    int bits = dtype_bits(to);
    if (bits >= 64) return v;
    /* v is an integer value of the source type: UINT64 values >= 2^63 do not fit int64 */
    uint64_t u = v >= 9223372036854775808.0 ? (uint64_t)v : (uint64_t)(int64_t)v;
    uint64_t m = u & ((UINT64_C(1) << bits) - 1);
    if (dtype_is_signed(to) && (m >> (bits - 1))) return (double)(int64_t)(m | ~((UINT64_C(1) << bits) - 1));
    return (double)m;
}

static double saturate_int(DType to, double v) {
    int bits = dtype_bits(to);
    double lo = dtype_is_signed(to) ? -ldexp(1.0, bits - 1) : 0.0, hi = dtype_is_signed(to) ? ldexp(1.0, bits - 1) - 1 : ldexp(1.0, bits) - 1;
    if (v != v) return 0.0;
    return v < lo ? lo : v > hi ? hi : v;
}

double dtype_convert(DType to, DType from, double v, int mode) {
    if (to == DT_BOOL) return v != 0;
    if (dtype_is_float(to)) return round_to_float(to, v, mode);
    if (dtype_is_float(from)) return saturate_int(to, round_to_integer(v, mode)) + 0.0;   /* + 0.0: no -0 integer */
    return wrap_int(to, v);
}

const char *dtype_round_name(int mode) {
    static const char *const names[] = { "none", "rint", "round", "floor", "ceil", "trunc", "odd" };
    return mode >= 0 && mode <= DT_ROUND_ODD ? names[mode] : NULL;
}
