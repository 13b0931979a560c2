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

int64_t floordiv_i64(int64_t a, int64_t b) {
    if (b == -1) return (int64_t)(0 - (uint64_t)a);
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t floormod_i64(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a - (uint64_t)floordiv_i64(a, b) * (uint64_t)b);
}
