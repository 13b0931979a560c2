/* sim/vec_row — the row kernels of the vector unit (used by vec.c): moving one tile row between a
 * layout view and a dense scratch row, and the element functions on dense rows.
 *
 * Requires: SimView layout tables (layout.c); rows given as (view, row index, element count).
 * Produces: dense rows as double (floats; any dtype for casts) or int64 (integers, exact), stores
 * that round once (FP16 / BF16 nearest even, FP32 float) or wrap two's-complement (integers), and
 * FP32 kernels working in place on contiguous rows of the tile memory.
 * Does: float arithmetic in double rounded once on store is exactly the per-operation rounding of
 * the element type for + - * / and sqrt (double has more than 2p + 2 bits for FP32, FP16, BF16),
 * and the "compute in double, round once" of the transcendentals (spec/ops.md §2.8). Integers are
 * exact in int64 (every vector integer type is at most 32 bits wide) and wrap when stored. The
 * FP32 kernels process blocks of 16 through local arrays: a fixed trip count lets gcc vectorise at
 * -O2, memcpy keeps the byte-array memory free of alignment and aliasing assumptions, and each block
 * is loaded before it is stored, so an in-place operation (dst == src) is exact. */
#include "sim/sim_int.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- rows <-> views */

void sim_vrow_load_d(const SimView *v, int64_t r, int64_t c0, int64_t n, double *o) {
    const uint8_t *p = v->base + v->roff[r] * v->eb;
    const int64_t *co = v->coff + c0;
    DType t = v->buf->dtype;
    switch (t) {
    case DT_FP32: for (int64_t j = 0; j < n; j++) { float f; memcpy(&f, p + co[j] * 4, 4); o[j] = f; } break;
    case DT_FP16: for (int64_t j = 0; j < n; j++) { uint16_t h; memcpy(&h, p + co[j] * 2, 2); o[j] = fp16_to_f32(h); } break;
    case DT_BF16: for (int64_t j = 0; j < n; j++) { uint16_t h; memcpy(&h, p + co[j] * 2, 2); o[j] = bf16_to_f32(h); } break;
    default: for (int64_t j = 0; j < n; j++) o[j] = dtype_read(t, p + co[j] * v->eb); break;
    }
}

/* x rounded once to FP16 / BF16 (nearest even) as its bit pattern. A value exact in float needs no
 * intermediate rounding; otherwise dtype_round_float rounds from the double directly. */
static uint16_t half_bits(DType t, double x) {
    float f = (float)x;
    if ((double)f != x && x == x) f = (float)dtype_round_float(t, x);
    return t == DT_FP16 ? f32_to_fp16(f) : f32_to_bf16(f);
}

void sim_vrow_store_d(const SimView *v, int64_t r, int64_t n, const double *in) {
    uint8_t *p = v->base + v->roff[r] * v->eb;
    const int64_t *co = v->coff;
    DType t = v->buf->dtype;
    switch (t) {
    case DT_FP32: for (int64_t j = 0; j < n; j++) { float f = (float)in[j]; memcpy(p + co[j] * 4, &f, 4); } break;
    case DT_FP16: case DT_BF16:
        for (int64_t j = 0; j < n; j++) { uint16_t h = half_bits(t, in[j]); memcpy(p + co[j] * 2, &h, 2); }
        break;
    default: for (int64_t j = 0; j < n; j++) sim_write_elem(t, p + co[j] * v->eb, in[j]); break;   /* cast results: in range */
    }
}

void sim_vrow_load_i(const SimView *v, int64_t r, int64_t c0, int64_t n, int64_t *o) {
    const uint8_t *p = v->base + v->roff[r] * v->eb;
    const int64_t *co = v->coff + c0;
    switch (v->buf->dtype) {
    case DT_INT8: for (int64_t j = 0; j < n; j++) o[j] = (int8_t)p[co[j]]; break;
    case DT_UINT8: for (int64_t j = 0; j < n; j++) o[j] = p[co[j]]; break;
    case DT_INT16: for (int64_t j = 0; j < n; j++) { int16_t x; memcpy(&x, p + co[j] * 2, 2); o[j] = x; } break;
    case DT_UINT16: for (int64_t j = 0; j < n; j++) { uint16_t x; memcpy(&x, p + co[j] * 2, 2); o[j] = x; } break;
    case DT_INT32: for (int64_t j = 0; j < n; j++) { int32_t x; memcpy(&x, p + co[j] * 4, 4); o[j] = x; } break;
    case DT_UINT32: for (int64_t j = 0; j < n; j++) { uint32_t x; memcpy(&x, p + co[j] * 4, 4); o[j] = x; } break;
    default: PTOC_ASSERT(false, "vector integer row of dtype %s", dtype_name(v->buf->dtype));
    }
}

/* Stores the low bits: two's-complement wrap to the element width. */
void sim_vrow_store_i(const SimView *v, int64_t r, int64_t n, const int64_t *in) {
    uint8_t *p = v->base + v->roff[r] * v->eb;
    const int64_t *co = v->coff;
    switch (v->eb) {
    case 1: for (int64_t j = 0; j < n; j++) p[co[j]] = (uint8_t)(uint64_t)in[j]; break;
    case 2: for (int64_t j = 0; j < n; j++) { uint16_t x = (uint16_t)(uint64_t)in[j]; memcpy(p + co[j] * 2, &x, 2); } break;
    case 4: for (int64_t j = 0; j < n; j++) { uint32_t x = (uint32_t)(uint64_t)in[j]; memcpy(p + co[j] * 4, &x, 4); } break;
    default: PTOC_ASSERT(false, "vector integer row of %d-byte elements", v->eb);
    }
}

/* ---------------------------------------------------------------- dense kernels */

#define K_ADD(x, y) ((x) + (y))
#define K_SUB(x, y) ((x) - (y))
#define K_MUL(x, y) ((x) * (y))
#define K_DIV(x, y) ((x) / (y))
#define K_MAX(x, y) ((x) < (y) ? (y) : (x))   /* std::max: max(a, NaN) = a, max(NaN, b) = NaN */
#define K_MIN(x, y) ((y) < (x) ? (y) : (x))   /* std::min */

void sim_vrow_bin_d(MirVecFn fn, double *o, const double *a, const double *b, int64_t n) {
    switch (fn) {
    case MVF_ADD: for (int64_t j = 0; j < n; j++) o[j] = K_ADD(a[j], b[j]); break;
    case MVF_SUB: for (int64_t j = 0; j < n; j++) o[j] = K_SUB(a[j], b[j]); break;
    case MVF_MUL: for (int64_t j = 0; j < n; j++) o[j] = K_MUL(a[j], b[j]); break;
    case MVF_DIV: for (int64_t j = 0; j < n; j++) o[j] = K_DIV(a[j], b[j]); break;
    case MVF_MAX: for (int64_t j = 0; j < n; j++) o[j] = K_MAX(a[j], b[j]); break;
    case MVF_MIN: for (int64_t j = 0; j < n; j++) o[j] = K_MIN(a[j], b[j]); break;
    default: memmove(o, b, sizeof(double) * (size_t)n); break;
    }
}

/* Integers: add / sub / mul through uint64 (no signed overflow; the store wraps), truncating
 * division. Returns the index of the first zero divisor, or -1. */
int64_t sim_vrow_bin_i(MirVecFn fn, int64_t *o, const int64_t *a, const int64_t *b, int64_t n) {
    switch (fn) {
    case MVF_ADD: for (int64_t j = 0; j < n; j++) o[j] = (int64_t)((uint64_t)a[j] + (uint64_t)b[j]); break;
    case MVF_SUB: for (int64_t j = 0; j < n; j++) o[j] = (int64_t)((uint64_t)a[j] - (uint64_t)b[j]); break;
    case MVF_MUL: for (int64_t j = 0; j < n; j++) o[j] = (int64_t)((uint64_t)a[j] * (uint64_t)b[j]); break;
    case MVF_DIV:
        for (int64_t j = 0; j < n; j++) {
            if (b[j] == 0) return j;
            o[j] = a[j] / b[j];   /* |values| < 2^32: no INT64_MIN / -1 */
        }
        break;
    case MVF_MAX: for (int64_t j = 0; j < n; j++) o[j] = K_MAX(a[j], b[j]); break;
    case MVF_MIN: for (int64_t j = 0; j < n; j++) o[j] = K_MIN(a[j], b[j]); break;
    default: memmove(o, b, sizeof(int64_t) * (size_t)n); break;
    }
    return -1;
}

void sim_vrow_unary_d(MirVecOp op, double *o, const double *a, int64_t n) {
    switch (op) {
    case VOP_EXP: for (int64_t j = 0; j < n; j++) o[j] = exp(a[j]); break;
    case VOP_LOG: for (int64_t j = 0; j < n; j++) o[j] = log(a[j]); break;
    case VOP_SQRT: for (int64_t j = 0; j < n; j++) o[j] = sqrt(a[j]); break;
    case VOP_RSQRT: for (int64_t j = 0; j < n; j++) o[j] = 1.0 / sqrt(a[j]); break;
    case VOP_RECIP: for (int64_t j = 0; j < n; j++) o[j] = 1.0 / a[j]; break;
    case VOP_ABS: for (int64_t j = 0; j < n; j++) o[j] = fabs(a[j]); break;
    case VOP_NEG: for (int64_t j = 0; j < n; j++) o[j] = -a[j]; break;
    case VOP_RELU: for (int64_t j = 0; j < n; j++) o[j] = a[j] < 0 ? 0.0 : a[j]; break;   /* std::max(x, 0) */
    default: PTOC_ASSERT(false, "not a unary vector op: %s", mir_vop_pto(op));
    }
}

/* abs / neg wrap on store (abs(INT_MIN) = INT_MIN); recip is the truncating 1 / x. Returns the
 * index of the first zero element for recip, or -1. */
int64_t sim_vrow_unary_i(MirVecOp op, int64_t *o, const int64_t *a, int64_t n) {
    switch (op) {
    case VOP_ABS: for (int64_t j = 0; j < n; j++) o[j] = a[j] < 0 ? -a[j] : a[j]; break;
    case VOP_NEG: for (int64_t j = 0; j < n; j++) o[j] = -a[j]; break;
    case VOP_RELU: for (int64_t j = 0; j < n; j++) o[j] = a[j] < 0 ? 0 : a[j]; break;
    case VOP_NOT: for (int64_t j = 0; j < n; j++) o[j] = ~a[j]; break;   /* the store keeps the low bits */
    case VOP_RECIP:
        for (int64_t j = 0; j < n; j++) {
            if (a[j] == 0) return j;
            o[j] = 1 / a[j];
        }
        break;
    default: PTOC_ASSERT(false, "not an integer unary vector op: %s", mir_vop_pto(op));
    }
    return -1;
}

/* ---------------------------------------------------------------- FP32 on contiguous rows */

#define F32_BLOCK 16

/* d[j] = E(a[j], b[j]) */
#define F32_BIN(name, E)                                                                          \
    static void name(uint8_t *d, const uint8_t *a, const uint8_t *b, int64_t n) {                 \
        int64_t j = 0;                                                                            \
        for (; j + F32_BLOCK <= n; j += F32_BLOCK) {                                              \
            float x[F32_BLOCK], y[F32_BLOCK], z[F32_BLOCK];                                       \
            memcpy(x, a + 4 * j, sizeof x);                                                       \
            memcpy(y, b + 4 * j, sizeof y);                                                       \
            for (int q = 0; q < F32_BLOCK; q++) z[q] = E(x[q], y[q]);                             \
            memcpy(d + 4 * j, z, sizeof z);                                                       \
        }                                                                                         \
        for (; j < n; j++) {                                                                      \
            float x, y, z;                                                                        \
            memcpy(&x, a + 4 * j, 4);                                                             \
            memcpy(&y, b + 4 * j, 4);                                                             \
            z = E(x, y);                                                                          \
            memcpy(d + 4 * j, &z, 4);                                                             \
        }                                                                                         \
    }

/* d[j] = E(a[j], s) */
#define F32_SC(name, E)                                                                           \
    static void name(uint8_t *d, const uint8_t *a, float s, int64_t n) {                          \
        int64_t j = 0;                                                                            \
        for (; j + F32_BLOCK <= n; j += F32_BLOCK) {                                              \
            float x[F32_BLOCK], z[F32_BLOCK];                                                     \
            memcpy(x, a + 4 * j, sizeof x);                                                       \
            for (int q = 0; q < F32_BLOCK; q++) z[q] = E(x[q], s);                                \
            memcpy(d + 4 * j, z, sizeof z);                                                       \
        }                                                                                         \
        for (; j < n; j++) {                                                                      \
            float x, z;                                                                           \
            memcpy(&x, a + 4 * j, 4);                                                             \
            z = E(x, s);                                                                          \
            memcpy(d + 4 * j, &z, 4);                                                             \
        }                                                                                         \
    }

/* d[j] = E(a[j]) */
#define F32_UN(name, E)                                                                           \
    static void name(uint8_t *d, const uint8_t *a, int64_t n) {                                   \
        int64_t j = 0;                                                                            \
        for (; j + F32_BLOCK <= n; j += F32_BLOCK) {                                              \
            float x[F32_BLOCK], z[F32_BLOCK];                                                     \
            memcpy(x, a + 4 * j, sizeof x);                                                       \
            for (int q = 0; q < F32_BLOCK; q++) z[q] = E(x[q]);                                   \
            memcpy(d + 4 * j, z, sizeof z);                                                       \
        }                                                                                         \
        for (; j < n; j++) {                                                                      \
            float x, z;                                                                           \
            memcpy(&x, a + 4 * j, 4);                                                             \
            z = E(x);                                                                             \
            memcpy(d + 4 * j, &z, 4);                                                             \
        }                                                                                         \
    }

F32_BIN(f32_add, K_ADD) F32_BIN(f32_sub, K_SUB) F32_BIN(f32_mul, K_MUL)
F32_BIN(f32_div, K_DIV) F32_BIN(f32_max, K_MAX) F32_BIN(f32_min, K_MIN)
F32_SC(f32_adds, K_ADD) F32_SC(f32_subs, K_SUB) F32_SC(f32_muls, K_MUL)
F32_SC(f32_divs, K_DIV) F32_SC(f32_maxs, K_MAX) F32_SC(f32_mins, K_MIN)

/* The same double formulas as sim_vrow_unary_d, so both paths give identical bits. */
#define U_EXP(x) ((float)exp((double)(x)))
#define U_LOG(x) ((float)log((double)(x)))
#define U_SQRT(x) ((float)sqrt((double)(x)))
#define U_RSQRT(x) ((float)(1.0 / sqrt((double)(x))))
#define U_RECIP(x) ((float)(1.0 / (double)(x)))
#define U_ABS(x) fabsf(x)
#define U_NEG(x) (-(x))
#define U_RELU(x) ((x) < 0 ? 0.0f : (x))
F32_UN(f32_exp, U_EXP) F32_UN(f32_log, U_LOG) F32_UN(f32_sqrt, U_SQRT) F32_UN(f32_rsqrt, U_RSQRT)
F32_UN(f32_recip, U_RECIP) F32_UN(f32_abs, U_ABS) F32_UN(f32_neg, U_NEG) F32_UN(f32_relu, U_RELU)

void sim_vrow_bin_f32(MirVecFn fn, uint8_t *d, const uint8_t *a, const uint8_t *b, int64_t n) {
    switch (fn) {
    case MVF_ADD: f32_add(d, a, b, n); break;
    case MVF_SUB: f32_sub(d, a, b, n); break;
    case MVF_MUL: f32_mul(d, a, b, n); break;
    case MVF_DIV: f32_div(d, a, b, n); break;
    case MVF_MAX: f32_max(d, a, b, n); break;
    case MVF_MIN: f32_min(d, a, b, n); break;
    default: memmove(d, b, 4 * (size_t)n); break;
    }
}

void sim_vrow_sc_f32(MirVecFn fn, uint8_t *d, const uint8_t *a, float s, int64_t n) {
    switch (fn) {
    case MVF_ADD: f32_adds(d, a, s, n); break;
    case MVF_SUB: f32_subs(d, a, s, n); break;
    case MVF_MUL: f32_muls(d, a, s, n); break;
    case MVF_DIV: f32_divs(d, a, s, n); break;
    case MVF_MAX: f32_maxs(d, a, s, n); break;
    case MVF_MIN: f32_mins(d, a, s, n); break;
    default: for (int64_t j = 0; j < n; j++) memcpy(d + 4 * j, &s, 4); break;   /* a fill */
    }
}

void sim_vrow_unary_f32(MirVecOp op, uint8_t *d, const uint8_t *a, int64_t n) {
    switch (op) {
    case VOP_EXP: f32_exp(d, a, n); break;
    case VOP_LOG: f32_log(d, a, n); break;
    case VOP_SQRT: f32_sqrt(d, a, n); break;
    case VOP_RSQRT: f32_rsqrt(d, a, n); break;
    case VOP_RECIP: f32_recip(d, a, n); break;
    case VOP_ABS: f32_abs(d, a, n); break;
    case VOP_NEG: f32_neg(d, a, n); break;
    case VOP_RELU: f32_relu(d, a, n); break;
    default: PTOC_ASSERT(false, "not a unary vector op: %s", mir_vop_pto(op));
    }
}
