/* test_interp_matmul — the golden interpreter's blocked matmul against a plain reference loop.
 *
 * Requires: interp_matmul_run (interp/interp_matmul.c).
 * Produces: PASS/FAIL counts (test.h).
 * Does: random shapes (ragged against the kernels' 4-row and 4/8/16/32-column blocks), transposed
 * operands, bias, accumulation, FP16 / BF16 / FP32 / INT8 operands and FP32 / FP16 / INT32 results;
 * the stored doubles must equal, bit for bit, the documented numerics computed element by element:
 * half operands: float running sum from +0, k ascending; FP32 operands: float sum, each product exact
 * in double with one rounding per addition; integers: exact int64 sums; then + bias, then C + sum in
 * FP32, then rounded to the result dtype. The AVX-512, AVX2 and portable kernels (PTOC_INTERP_ISA). */
#include "interp/interp_internal.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static uint32_t rs = 99;
static uint32_t rnd(void) { rs = rs * 1664525u + 1013904223u; return rs >> 8; }

static InterpArray *arr(DType t, int64_t r, int64_t c) {
    InterpArray *a = interp_array_new(t, 2, (int64_t[]){ r, c });
    for (int64_t i = 0; i < r * c; i++) {
        double x = ((double)(rnd() % 20001) - 10000.0) / 997.0;
        if (rnd() % 50 == 0) x = -0.0;
        if (rnd() % 40 == 0) x = (rnd() % 2 ? 1 : -1) * 3.0e-6 * (1 + rnd() % 7);   /* FP16 subnormals */
        if (t == DT_FP16 && rnd() % 400 == 0) x = rnd() % 2 ? INFINITY : -INFINITY;
        interp_set(a, i, dtype_is_int(t) ? (double)((int)(rnd() % 256) - 128) : interp_round(t, x));
    }
    return a;
}

static void arr_free(InterpArray *a) { interp_array_release(a); }

static bool same_bits(double x, double y) { return memcmp(&x, &y, sizeof x) == 0; }

static double ref_elem(const InterpMatmul *m, int64_t i, int64_t j, int64_t M, int64_t N, int64_t K, double old, DType rt) {
    DType t = m->a->dtype;
    double bias = m->bias ? interp_get(m->bias, j) : 0.0;
    if (dtype_is_int(t)) {
        int64_t s = 0;
        for (int64_t l = 0; l < K; l++) {
            double a = interp_get(m->a, m->a_trans ? l * M + i : i * K + l);
            double b = interp_get(m->b, m->b_trans ? j * K + l : l * N + j);
            s += (int64_t)a * (int64_t)b;
        }
        double v = (double)s + bias;
        if (m->accumulate) v += old;
        return interp_round(rt, v);
    }
    float s = 0.0f;
    for (int64_t l = 0; l < K; l++) {
        double a = interp_get(m->a, m->a_trans ? l * M + i : i * K + l);
        double b = interp_get(m->b, m->b_trans ? j * K + l : l * N + j);
        if (t == DT_FP32) s = (float)((double)s + a * b);
        else s = s + (float)a * (float)b;
    }
    if (m->bias) s = s + (float)bias;
    if (m->accumulate) s = (float)old + s;
    return interp_round(rt, s);
}

TEST(blocked_matches_reference) {
    DType ts[] = { DT_FP16, DT_BF16, DT_FP32, DT_INT8 };
    int bad = 0, n = 0;
    for (int it = 0; it < 240; it++) {
        DType t = ts[it % 4];
        int64_t M = 1 + rnd() % 40, N = 1 + rnd() % 70, K = 1 + rnd() % 90;
        if (it % 41 == 0) { M = 64; N = 96; K = 64; }
        if (it >= 236) { M = 70; N = 150; K = 900; }   /* each dtype: two row blocks, several K panels */
        bool at = rnd() % 2, bt = rnd() % 2, acc = rnd() % 3 == 0, bias = rnd() % 3 == 0;
        InterpArray *a = at ? arr(t, K, M) : arr(t, M, K), *b = bt ? arr(t, N, K) : arr(t, K, N);
        DType rt = dtype_is_int(t) ? DT_INT32 : (rnd() % 2 ? DT_FP32 : DT_FP16);
        InterpArray *bi = bias ? arr(dtype_is_int(t) ? DT_INT32 : DT_FP32, 1, N) : NULL;
        InterpArray *r = arr(rt, M, N);
        double *want = malloc(sizeof(double) * (size_t)(M * N));
        InterpMatmul mm = { a, b, bi, at, bt, acc };
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) want[i * N + j] = ref_elem(&mm, i, j, M, N, K, interp_get(r, i * N + j), rt);
        interp_matmul_run(&mm, r);
        n++;
        bool differ = false;
        for (int64_t i = 0; i < M * N; i++) differ |= !same_bits(want[i], interp_get(r, i));
        if (differ) {
            bad++;
            printf("  mismatch: %s M %lld N %lld K %lld\n", dtype_name(t), (long long)M, (long long)N, (long long)K);
        }
        free(want);
        arr_free(a); arr_free(b); arr_free(bi); arr_free(r);
    }
    CHECK_MSG(bad == 0, "%d of %d matmuls differ from the reference", bad, n);
}

TEST(portable_kernels_match_reference) {
    setenv("PTOC_INTERP_ISA", "generic", 1);
    blocked_matches_reference();
    unsetenv("PTOC_INTERP_ISA");
}

TEST(avx2_kernels_match_reference) {
    setenv("PTOC_INTERP_ISA", "avx2", 1);
    blocked_matches_reference();
    unsetenv("PTOC_INTERP_ISA");
}

int main(void) {
    RUN(blocked_matches_reference);
    RUN(portable_kernels_match_reference);
    RUN(avx2_kernels_match_reference);
    return test_summary();
}
