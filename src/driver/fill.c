/* fill — the random inputs of `ptoc run` (drv_fill_random): floats in [-1, 1), integers in [-8, 7],
 * from one splitmix64 stream continuing across the tensors.
 * Requires: base (f32_to_fp16, f32_to_bf16).
 * Produces: drv_fill_random, drv_fill_random_threads (driver.h).
 * Does: splitmix64 is counter-based — value i is mix(state + (i + 1) * gamma) — so every element
 *   is made on its own: a tensor is cut into ranges filled on host threads, and FP16 / FP32 ranges are
 *   made 8 at a time with AVX-512 where the CPU has it (the same operations: u64 -> double exact,
 *   double -> float and float -> half rounded to nearest even, as the scalar code's casts), so the
 *   bytes never depend on the thread count or the CPU. */
#include "driver/driver_int.h"

#include <stdbool.h>
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

static bool fill_wide_ok(void) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("f16c");
}
#endif

/* Elements [i0, i1) of the stream that starts after state: floats in [-1, 1), integers in [-8, 7]. */
static void fill_range(void *buf, DType dt, int64_t i0, int64_t i1, uint64_t state) {
#ifdef FILL_X86
    if ((dt == DT_FP16 || dt == DT_FP32) && fill_wide_ok()) i0 = fill_wide(buf, dt == DT_FP16, i0, i1, state);
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

