/* sim/mad_kernel — the dense MAD kernels: FP32 (fused multiply-add per step, k ascending, as
 * pto-isa's TMATMUL: std::fma) and the INT8 path's int32 (wrapping, two's complement).
 *
 * Requires: dense row-major operands (mad.c converts the tiles' layouts once per instruction).
 * Produces: sim_mad_f32 / sim_mad_i32 (and their *_ws forms taking a caller's workspace).
 * Does: instantiates the packed, register-blocked template mad_kern.h per ISA and picks one at run
 * time: AVX-512 (8 x 32 tiles) or AVX2 (6 x 16) where the CPU has them, else a portable 4 x 8
 * generic-vector variant. Every variant computes each element of C with the same operations in the
 * same order (c = +0; c = fma(a, b, c), l ascending), so the result is bit-identical whatever the
 * variant (tests/unit/test_mad.c checks it against fmaf). The build has no -mfma (and uses
 * -ffp-contract=off), so the fusion is explicit: FMA instructions in the AVX2 (+FMA) / AVX-512
 * variants, and an exact emulation (sim_fmaf_emul) in the generic one rather than a libm call per
 * element. FP16 / BF16 operands take the same path: their products are exact in float, so fusing
 * changes nothing for them (except products below the float range, where fused is again pto-isa's). */
#include "sim/sim_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* fmaf(a, b, c) exactly, without FMA hardware: the double product of two floats is exact (48 bits,
 * exponent far from double's limits); the double sum is then made round-to-odd (TwoSum gives its
 * error; an inexact even result moves one ulp towards the exact value), and a 53-bit round-to-odd
 * value rounds to float (24 bits, or fewer when subnormal) exactly as the exact sum would. */
static inline float fma_emul(float a, float b, float c) {
    double p = (double)a * (double)b, cd = c, s = p + cd;
    if (!isfinite(s)) return (float)s;
    double bv = s - p, e = (p - (s - bv)) + (cd - bv);
    if (e != 0) {
        uint64_t u;
        memcpy(&u, &s, sizeof u);
        if (!(u & 1)) {
            u = (e > 0) == (s > 0) ? u + 1 : u - 1;
            memcpy(&s, &u, sizeof s);
        }
    }
    return (float)s;
}

float sim_fmaf_emul(float a, float b, float c) { return fma_emul(a, b, c); }

/* lane-wise fused update for the generic vectors (a GNU statement expression over V of tile()) */
#define MK_MULADD_EMUL(acc, x, bv)                                                                 \
    ({                                                                                             \
        V mk_a_ = (acc);                                                                           \
        for (int mk_i_ = 0; mk_i_ < MK_VW; mk_i_++) mk_a_[mk_i_] = fma_emul((x), (bv)[mk_i_], mk_a_[mk_i_]); \
        mk_a_;                                                                                     \
    })
#define MK_MULADD_INT(acc, x, bv) ((acc) + (x) * (bv))

#define MK_VW 4
#define MK_MR 4
#define MK_TARGET
#define MK_T float
#define MK_NAME(x) f32_gen_##x
#define MK_MULADD MK_MULADD_EMUL
#include "sim/mad_kern.h"
#undef MK_MULADD
#undef MK_T
#undef MK_NAME
#define MK_T uint32_t
#define MK_NAME(x) i32_gen_##x
#define MK_MULADD MK_MULADD_INT
#include "sim/mad_kern.h"
#undef MK_MULADD
#undef MK_T
#undef MK_NAME
#undef MK_VW
#undef MK_MR
#undef MK_TARGET

#if defined(__x86_64__) && defined(__GNUC__)
#define MAD_X86 1
#define MK_VW 16
#define MK_MR 8
#define MK_TARGET __attribute__((target("avx512f")))
#define MK_T float
#define MK_NAME(x) f32_512_##x
#define MK_MULADD(acc, x, bv) ((V)_mm512_fmadd_ps((__m512)(bv), _mm512_set1_ps(x), (__m512)(acc)))
#include "sim/mad_kern.h"
#undef MK_MULADD
#undef MK_T
#undef MK_NAME
#define MK_T uint32_t
#define MK_NAME(x) i32_512_##x
#define MK_MULADD MK_MULADD_INT
#include "sim/mad_kern.h"
#undef MK_MULADD
#undef MK_T
#undef MK_NAME
#undef MK_VW
#undef MK_MR
#undef MK_TARGET

#define MK_VW 8
#define MK_MR 6
#define MK_TARGET __attribute__((target("avx2,fma")))
#define MK_T float
#define MK_NAME(x) f32_256_##x
#define MK_MULADD(acc, x, bv) ((V)_mm256_fmadd_ps((__m256)(bv), _mm256_set1_ps(x), (__m256)(acc)))
#include "sim/mad_kern.h"
#undef MK_MULADD
#undef MK_T
#undef MK_NAME
#define MK_T uint32_t
#define MK_NAME(x) i32_256_##x
#define MK_MULADD MK_MULADD_INT
#include "sim/mad_kern.h"
#undef MK_MULADD
#undef MK_T
#undef MK_NAME
#undef MK_VW
#undef MK_MR
#undef MK_TARGET
#endif

/* 2: AVX-512 (its F subset has FMA), 1: AVX2 + FMA, 0: generic. PTOC_MAD_ISA=generic|avx2 forces a narrower variant (tests). */
static int mad_isa(void) {
    const char *e = getenv("PTOC_MAD_ISA");
    int cap = e && !strcmp(e, "generic") ? 0 : e && !strcmp(e, "avx2") ? 1 : 2;
#ifdef MAD_X86
    if (cap >= 2 && __builtin_cpu_supports("avx512f")) return 2;
    if (cap >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 1;
#endif
    (void)cap;
    return 0;
}

int64_t sim_mad_ws_elems(int64_t m, int64_t n, int64_t k) {
    int64_t a = f32_gen_ws_elems(m, n, k);
#ifdef MAD_X86
    int64_t b = f32_512_ws_elems(m, n, k), c = f32_256_ws_elems(m, n, k);
    if (b > a) a = b;
    if (c > a) a = c;
#endif
    return a;
}

void sim_mad_f32_ws(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c, float *ws) {
    switch (mad_isa()) {
#ifdef MAD_X86
    case 2: f32_512_mad(m, n, k, a, b, c, ws); return;
    case 1: f32_256_mad(m, n, k, a, b, c, ws); return;
#endif
    default: f32_gen_mad(m, n, k, a, b, c, ws); return;
    }
}

void sim_mad_i32_ws(int64_t m, int64_t n, int64_t k, const int32_t *a, const int32_t *b, int32_t *c, int32_t *ws) {
    /* int32 and uint32 share representation; the wrapping arithmetic is done unsigned */
    const uint32_t *ua = (const uint32_t *)a, *ub = (const uint32_t *)b;
    uint32_t *uc = (uint32_t *)c, *uw = (uint32_t *)ws;
    switch (mad_isa()) {
#ifdef MAD_X86
    case 2: i32_512_mad(m, n, k, ua, ub, uc, uw); return;
    case 1: i32_256_mad(m, n, k, ua, ub, uc, uw); return;
#endif
    default: i32_gen_mad(m, n, k, ua, ub, uc, uw); return;
    }
}

void sim_mad_f32(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c) {
    float *ws = malloc(sizeof(float) * (size_t)sim_mad_ws_elems(m, n, k) + 64);
    PTOC_ASSERT(ws, "out of memory");
    sim_mad_f32_ws(m, n, k, a, b, c, ws);
    free(ws);
}

void sim_mad_i32(int64_t m, int64_t n, int64_t k, const int32_t *a, const int32_t *b, int32_t *c) {
    int32_t *ws = malloc(sizeof(int32_t) * (size_t)sim_mad_ws_elems(m, n, k) + 64);
    PTOC_ASSERT(ws, "out of memory");
    sim_mad_i32_ws(m, n, k, a, b, c, ws);
    free(ws);
}
