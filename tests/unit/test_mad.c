/* test_mad — the simulator's MAD kernels against a straightforward reference loop, bit for bit.
 *
 * Requires: sim_mad_f32 / sim_mad_i32 (sim/mad_kernel.c), sim_fp16_run (sim/mad.c).
 * Produces: PASS/FAIL counts (test.h).
 * Does: random shapes (ragged and boundary tiles around every variant's 4/6/8-row and 8/16/32-column
 * micro-tiles, k from 1 up) with operands drawn from FP16, BF16, FP32 (incl. signed zeros,
 * subnormals, inf) and INT8 values, under each ISA variant (PTOC_MAD_ISA); exact equality of the
 * bits with c = +0; c = fmaf(a, b, c) (k ascending, libm's fmaf as the reference), and int32
 * wrapping sums. The generic variant's exact fmaf emulation against fmaf on random bit patterns,
 * near-cancellations, near-ties and a double-rounding trap. Also the FP16 conversion on all 65536
 * inputs against fp16_to_f32. */
#include "sim/sim_int.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 12345;
static uint32_t rnd(void) { rng = rng * 1664525u + 1013904223u; return rng >> 8; }

/* A value of the given operand kind as the cube sees it (float). */
static float operand(DType t) {
    float x = ((float)(rnd() % 20001) - 10000.0f) / 1000.0f;
    uint32_t pick = rnd() % 64;
    if (pick == 0) x = 0.0f;
    if (pick == 1) x = -0.0f;
    if (t == DT_FP16) return pick == 2 ? fp16_to_f32((uint16_t)(rnd() % 0x400)) : fp16_to_f32(f32_to_fp16(x));
    if (t == DT_BF16) return bf16_to_f32(f32_to_bf16(x));
    if (pick == 2) return 1e-40f;                 /* FP32 subnormal */
    if (pick == 3 && rnd() % 8 == 0) return -INFINITY;
    return x * (float)(1 + rnd() % 7) / 3.0f;      /* not exactly representable products */
}

static void ref_f32(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float s = 0.0f;
            for (int64_t l = 0; l < k; l++) s = fmaf(a[i * k + l], b[l * n + j], s);
            c[i * n + j] = s;
        }
}

static void ref_i32(int64_t m, int64_t n, int64_t k, const int32_t *a, const int32_t *b, int32_t *c) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            uint32_t s = 0;
            for (int64_t l = 0; l < k; l++) s += (uint32_t)a[i * k + l] * (uint32_t)b[l * n + j];
            c[i * n + j] = (int32_t)s;
        }
}

static const int64_t dims[] = { 1, 2, 3, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 47, 48, 64, 65, 100, 128 };
#define NDIMS ((int)(sizeof dims / sizeof dims[0]))

static bool one_shape(DType t, int64_t m, int64_t n, int64_t k) {
    size_t sa = (size_t)(m * k), sb = (size_t)(k * n), sc = (size_t)(m * n);
    bool ok;
    if (t == DT_INT8) {
        int32_t *a = malloc(4 * sa), *b = malloc(4 * sb), *c = malloc(4 * sc), *r = malloc(4 * sc);
        for (size_t j = 0; j < sa; j++) a[j] = (int32_t)(rnd() % 256) - 128;
        for (size_t j = 0; j < sb; j++) b[j] = (int32_t)(rnd() % 256) - 128;
        sim_mad_i32(m, n, k, a, b, c);
        ref_i32(m, n, k, a, b, r);
        ok = memcmp(c, r, 4 * sc) == 0;
        free(a); free(b); free(c); free(r);
        return ok;
    }
    float *a = malloc(4 * sa), *b = malloc(4 * sb), *c = malloc(4 * sc), *r = malloc(4 * sc);
    for (size_t j = 0; j < sa; j++) a[j] = operand(t);
    for (size_t j = 0; j < sb; j++) b[j] = operand(t);
    sim_mad_f32(m, n, k, a, b, c);
    ref_f32(m, n, k, a, b, r);
    ok = memcmp(c, r, 4 * sc) == 0;   /* bits: signed zeros, NaN payloads included */
    free(a); free(b); free(c); free(r);
    return ok;
}

static void shapes(const char *isa) {
    setenv("PTOC_MAD_ISA", isa, 1);
    DType types[] = { DT_FP16, DT_BF16, DT_FP32, DT_INT8 };
    for (int t = 0; t < 4; t++) {
        int bad = 0, runs = 0;
        for (int r = 0; r < 60; r++) {
            int64_t m = dims[rnd() % NDIMS], n = dims[rnd() % NDIMS], k = dims[rnd() % NDIMS];
            if (!one_shape(types[t], m, n, k)) {
                bad++;
                printf("  mismatch: isa %s dtype %s m %lld n %lld k %lld\n", isa, dtype_name(types[t]), (long long)m,
                       (long long)n, (long long)k);
            }
            runs++;
        }
        CHECK_MSG(bad == 0, "isa %s dtype %s: %d of %d shapes differ from the reference loop", isa, dtype_name(types[t]),
                  bad, runs);
    }
    /* a long k (one tile over the whole of k) and a big square */
    CHECK(one_shape(DT_FP16, 9, 33, 4095));
    CHECK(one_shape(DT_FP32, 128, 128, 128));
    CHECK(one_shape(DT_INT8, 17, 40, 1000));
    unsetenv("PTOC_MAD_ISA");
}

TEST(mad_generic) { shapes("generic"); }
TEST(mad_avx2) { shapes("avx2"); }
TEST(mad_best) { shapes("best"); }

static float fbits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bitsf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t rnd32(void) { return rnd() << 16 ^ rnd(); }

/* 1 when sim_fmaf_emul(a, b, c) has fmaf's bits (any NaN matches any NaN) */
static int fma_same(float a, float b, float c) {
    float r = fmaf(a, b, c), e = sim_fmaf_emul(a, b, c);
    if (isnan(r) || isnan(e)) return isnan(r) && isnan(e);
    return bitsf(r) == bitsf(e);
}

TEST(fma_emulation_matches_fmaf) {
    int bad = 0;
    /* a double-rounding trap: exact 2^30 + 192 - 2^-40 rounds to 2^30 + 128; a plain double sum
     * rounds to the tie 2^30 + 192 first and then to even, 2^30 + 256 */
    float a = 8.0f + 0x1p-20f, b = 8.0f - 0x1p-20f, c = 0x1p30f + 128.0f;
    CHECK_EQ_INT((long long)sim_fmaf_emul(a, b, c), (long long)(0x1p30f + 128.0f));
    CHECK((float)((double)a * b + c) != sim_fmaf_emul(a, b, c));
    for (int i = 0; i < 2000000; i++) {
        uint32_t ua = rnd32(), ub = rnd32(), uc = rnd32();
        switch (i % 5) {
        case 0: break;                                               /* any bits: NaN, inf, subnormal */
        case 1: ua = (ua & 0x807fffffu) | (uint32_t)(100 + rnd() % 56) << 23;   /* normal, near 1 */
                ub = (ub & 0x807fffffu) | (uint32_t)(100 + rnd() % 56) << 23;
                uc = bitsf(-(float)((double)fbits(ua) * fbits(ub))) + (rnd() % 5) - 2; break; /* cancellation */
        case 2: ua = (ua & 0x807fffffu) | 127u << 23; ub = (ub & 0x807fffffu) | 127u << 23;
                uc = (uc & 0x807fffffu) | (uint32_t)(127 + 20 + rnd() % 12) << 23; break; /* product a tail of c */
        case 3: ua = (ua & 0x80000fffu) | (uint32_t)(1 + rnd() % 60) << 23; ub = (ub & 0x80000fffu) | (uint32_t)(1 + rnd() % 60) << 23;
                uc &= 0x80ffffffu; break;                            /* tiny: subnormal results */
        default: ua = (ua & 0xff800000u) | (rnd() % 4 ? 1u : 0x400000u);   /* few mantissa bits: ties */
                 ub = (ub & 0x80000000u) | (ub & 0x7f800000u) | (rnd() % 2 ? 0x400001u : 1u);
                 uc = (uc & 0x807fffffu) | ((ua >> 23 & 0xff) + (ub >> 23 & 0xff) - 127 + 24 - rnd() % 3) % 255 << 23;
                 break;
        }
        bad += !fma_same(fbits(ua), fbits(ub), fbits(uc));
    }
    float sp[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 0x1p-149f, -0x1p-149f, 0x1p-126f, 3.4028235e38f, -3.4028235e38f, 0x1p-75f };
    int ns = (int)(sizeof sp / sizeof sp[0]);
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < ns; j++)
            for (int l = 0; l < ns; l++) bad += !fma_same(sp[i], sp[j], sp[l]);
    CHECK_MSG(bad == 0, "%d inputs where the emulation differs from fmaf", bad);
}

TEST(fp16_conversion_all_inputs) {
    uint16_t *h = malloc(2 * 65536);
    float *f = malloc(4 * 65536);
    for (int j = 0; j < 65536; j++) h[j] = (uint16_t)j;
    sim_fp16_run((const uint8_t *)h, 65536, f);
    int bad = 0;
    for (int j = 0; j < 65536; j++) {
        float r = fp16_to_f32((uint16_t)j);
        if (memcmp(&r, &f[j], 4)) bad++;
    }
    CHECK_MSG(bad == 0, "%d of 65536 FP16 values convert differently from fp16_to_f32", bad);
    /* odd lengths and offsets take the scalar tail */
    sim_fp16_run((const uint8_t *)(h + 0x7bf0), 37, f);
    bad = 0;
    for (int j = 0; j < 37; j++) { float r = fp16_to_f32((uint16_t)(0x7bf0 + j)); bad += memcmp(&r, &f[j], 4) != 0; }
    CHECK_EQ_INT(bad, 0);
    free(h); free(f);
}

int main(void) {
    RUN(mad_generic);
    RUN(mad_avx2);
    RUN(mad_best);
    RUN(fma_emulation_matches_fmaf);
    RUN(fp16_conversion_all_inputs);
    return test_summary();
}
