/* fill — the random inputs of `ptoc run` (drv_fill_random): floats in [-1, 1), integers in [-8, 7],
 * from one splitmix64 stream continuing across the tensors.
 * Requires: base (f32_to_fp16, f32_to_bf16).
 * Produces: drv_fill_random, drv_fill_random_threads (driver.h).
 * Does: splitmix64 is counter-based — value i is mix(state + (i + 1) * gamma) — so every element
 *   is made on its own: a tensor is cut into ranges filled on host threads, and FP16 / FP32 ranges are
 *   made 8 at a time with AVX-512 or AVX2 where the CPU has them (the same operations: u64 -> double exact,
 *   double -> float and float -> half rounded to nearest even, as the scalar code's casts), so the
 *   bytes never depend on the thread count or the CPU. */
#include "driver/driver_int.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FILL_X86 1
#endif

/* splitmix64: value i of a stream is mix(state + (i + 1) * gamma), so any element can be made on
 * its own (the parallel fill below) and the stream is the same however it is cut. */
#define SPLITMIX_GAMMA 0x9E3779B97F4A7C15ull
static uint64_t splitmix64_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#define FILL_LOOP(T, expr)                                                                        \
    for (int64_t i = i0; i < i1; i++) {                                                           \
        uint64_t r = splitmix64_mix(state + (uint64_t)(i + 1) * SPLITMIX_GAMMA);                 \
        float f = (float)((double)(r >> 11) * 0x1p-53 * 2.0 - 1.0);                               \
        int64_t iv = (int64_t)(r % 16) - 8;                                                       \
        (void)f; (void)iv;                                                                        \
        ((T *)buf)[i] = (expr);                                                                   \
    }

/* f32_to_fp16 for the fill's values (|f| < 1), inline: a normal half by bit arithmetic (round to
 * nearest even on the 13 dropped bits), the rest — zero and the subnormal halves — by the base one. */
static inline uint16_t fill_half(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint32_t a = u & 0x7fffffffu;
    if (a < 0x38800000u) return f32_to_fp16(f);
    uint32_t h = ((a >> 23) - 112) << 10 | (a & 0x7fffff) >> 13, rem = a & 0x1fff;
    h += rem > 0x1000 || (rem == 0x1000 && (h & 1));
    return (uint16_t)((u >> 16 & 0x8000) | h);
}

#ifdef FILL_X86
/* Elements [i0, i1) of an FP16 (half) or FP32 tensor, 8 at a time; the tail is the scalar loop's. */
__attribute__((target("avx512f,avx512dq,f16c"))) static int64_t fill_wide(void *buf, bool half, int64_t i0, int64_t i1,
                                                                        uint64_t state) {
    const __m512i gamma = _mm512_set1_epi64((long long)SPLITMIX_GAMMA), lanes = _mm512_set_epi64(8, 7, 6, 5, 4, 3, 2, 1);
    const __m512i m1 = _mm512_set1_epi64((long long)0xBF58476D1CE4E5B9ull), m2 = _mm512_set1_epi64((long long)0x94D049BB133111EBull);
    const __m512d scale = _mm512_set1_pd(0x1p-53 * 2.0), one = _mm512_set1_pd(1.0);
    int64_t i = i0;
    for (; i + 8 <= i1; i += 8) {
        __m512i z = _mm512_add_epi64(_mm512_set1_epi64((long long)(state + (uint64_t)i * SPLITMIX_GAMMA)),
                                     _mm512_mullo_epi64(lanes, gamma));
        z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 30)), m1);
        z = _mm512_mullo_epi64(_mm512_xor_si512(z, _mm512_srli_epi64(z, 27)), m2);
        z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
        __m512d d = _mm512_sub_pd(_mm512_mul_pd(_mm512_cvtepu64_pd(_mm512_srli_epi64(z, 11)), scale), one);
        __m256 f = _mm512_cvtpd_ps(d);
        if (half) _mm_storeu_si128((__m128i *)((uint16_t *)buf + i), _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        else _mm256_storeu_ps((float *)buf + i, f);
    }
    return i;
}

/* The same on AVX2 (+F16C), 4 lanes of 64 bits: the 64-bit products from 32-bit ones (the low 64
 * bits of the full product, as the scalar multiply), the 53-bit integer to double in two exact
 * halves (2^52 bias trick), then the same roundings. */
#define FILL_AVX2_TARGET __attribute__((target("avx2,f16c")))
FILL_AVX2_TARGET static inline __m256i fill_mul64(__m256i a, __m256i b, __m256i b_hi) {
    __m256i lo = _mm256_mul_epu32(a, b);
    __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b), _mm256_mul_epu32(a, b_hi));
    return _mm256_add_epi64(lo, _mm256_slli_epi64(cross, 32));
}

FILL_AVX2_TARGET static inline __m128 fill_floats4(__m256i z) {
    const __m256i m1 = _mm256_set1_epi64x((long long)0xBF58476D1CE4E5B9ull), m1h = _mm256_srli_epi64(m1, 32);
    const __m256i m2 = _mm256_set1_epi64x((long long)0x94D049BB133111EBull), m2h = _mm256_srli_epi64(m2, 32);
    const __m256i bias = _mm256_set1_epi64x(0x4330000000000000ll);
    const __m256d two52 = _mm256_set1_pd(0x1p52), two32 = _mm256_set1_pd(0x1p32);
    z = fill_mul64(_mm256_xor_si256(z, _mm256_srli_epi64(z, 30)), m1, m1h);
    z = fill_mul64(_mm256_xor_si256(z, _mm256_srli_epi64(z, 27)), m2, m2h);
    z = _mm256_xor_si256(z, _mm256_srli_epi64(z, 31));
    __m256i v = _mm256_srli_epi64(z, 11);
    __m256d hi = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(v, 32), bias)), two52);
    __m256d lo = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(v, _mm256_set1_epi64x(0xffffffffll)), bias)), two52);
    __m256d d = _mm256_add_pd(_mm256_mul_pd(hi, two32), lo);                 /* exact: < 2^53 */
    d = _mm256_sub_pd(_mm256_mul_pd(_mm256_mul_pd(d, _mm256_set1_pd(0x1p-53)), _mm256_set1_pd(2.0)), _mm256_set1_pd(1.0));
    return _mm256_cvtpd_ps(d);
}

FILL_AVX2_TARGET static int64_t fill_avx2(void *buf, bool half, int64_t i0, int64_t i1, uint64_t state) {
    const __m256i g = _mm256_set1_epi64x((long long)SPLITMIX_GAMMA);
    const __m256i lanes_lo = _mm256_set_epi64x(4, 3, 2, 1), lanes_hi = _mm256_set_epi64x(8, 7, 6, 5);
    const __m256i off_lo = fill_mul64(lanes_lo, g, _mm256_srli_epi64(g, 32)), off_hi = fill_mul64(lanes_hi, g, _mm256_srli_epi64(g, 32));
    int64_t i = i0;
    for (; i + 8 <= i1; i += 8) {
        __m256i base = _mm256_set1_epi64x((long long)(state + (uint64_t)i * SPLITMIX_GAMMA));
        __m256 f = _mm256_set_m128(fill_floats4(_mm256_add_epi64(base, off_hi)), fill_floats4(_mm256_add_epi64(base, off_lo)));
        if (half) _mm_storeu_si128((__m128i *)((uint16_t *)buf + i), _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        else _mm256_storeu_ps((float *)buf + i, f);
    }
    return i;
}

/* 2: AVX-512, 1: AVX2, 0: scalar. PTOC_FILL_ISA=generic|avx2 forces a narrower variant (tests). */
static int fill_isa(void) {
    const char *e = getenv("PTOC_FILL_ISA");
    int cap = e && !strcmp(e, "generic") ? 0 : e && !strcmp(e, "avx2") ? 1 : 2;
    if (cap >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("f16c")) return 2;
    if (cap >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c")) return 1;
    return 0;
}
#endif

/* Elements [i0, i1) of the stream that starts after state: floats in [-1, 1), integers in [-8, 7]. */
static void fill_range(void *buf, DType dt, int64_t i0, int64_t i1, uint64_t state) {
#ifdef FILL_X86
    if (dt == DT_FP16 || dt == DT_FP32) {
        int isa = fill_isa();
        if (isa == 2) i0 = fill_wide(buf, dt == DT_FP16, i0, i1, state);
        else if (isa == 1) i0 = fill_avx2(buf, dt == DT_FP16, i0, i1, state);
    }
#endif
    switch (dt) {
    case DT_FP16: FILL_LOOP(uint16_t, fill_half(f)) break;
    case DT_BF16: FILL_LOOP(uint16_t, f32_to_bf16(f)) break;
    case DT_FP32: FILL_LOOP(float, f) break;
    case DT_INT8: FILL_LOOP(int8_t, (int8_t)iv) break;
    case DT_UINT8: FILL_LOOP(uint8_t, (uint8_t)(iv + 8)) break;
    case DT_INT16: FILL_LOOP(int16_t, (int16_t)iv) break;
    case DT_INT32: FILL_LOOP(int32_t, (int32_t)iv) break;
    case DT_INT64: case DT_INDEX: FILL_LOOP(int64_t, iv) break;
    case DT_BOOL: FILL_LOOP(uint8_t, (uint8_t)(r & 1)) break;
    default: break;
    }
}

void drv_fill_random(void *buf, DType dt, int64_t n, uint64_t *state) {
    fill_range(buf, dt, 0, n, *state);
    *state += (uint64_t)n * SPLITMIX_GAMMA;
}

typedef struct FillJob { void *buf; DType dt; int64_t i0, i1; uint64_t state; } FillJob;
static void *fill_job(void *p) {
    FillJob *j = p;
    fill_range(j->buf, j->dt, j->i0, j->i1, j->state);
    return NULL;
}

/* drv_fill_random on up to `threads` host threads (large tensors only); the same bytes. */
void drv_fill_random_threads(void *buf, DType dt, int64_t n, uint64_t *state, int threads) {
    enum { MAX_FILL_THREADS = 16, MIN_FILL_CHUNK = 1 << 16 };
    if (threads > MAX_FILL_THREADS) threads = MAX_FILL_THREADS;
    if (threads > n / MIN_FILL_CHUNK) threads = (int)(n / MIN_FILL_CHUNK);
    if (threads < 2) { drv_fill_random(buf, dt, n, state); return; }
    FillJob jobs[MAX_FILL_THREADS];
    for (int t = 0; t < threads; t++) jobs[t] = (FillJob){ buf, dt, n * t / threads, n * (t + 1) / threads, *state };
    drv_run_jobs(jobs, sizeof jobs[0], threads, fill_job);
    *state += (uint64_t)n * SPLITMIX_GAMMA;
}

