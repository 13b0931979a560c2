/* interp_matmul — the cube's numerics for the interpreter: C = op(A) @ op(B) [+ bias] [+ C].
 *
 * Requires: operands already checked to be 2-D with matching K (interp_matmul_dims).
 * Produces: the result rounded to the result array's dtype.
 * Does: FP16/BF16 operands: products are exact in float, summed in a float running sum with k
 * ascending (one rounding per addition, as the cube's FP32 accumulator). FP32 operands: each product
 * is formed exactly in double and added to the float sum with one rounding to float. Integer
 * operands: exact int64 sums. Accumulation into an existing C (`accumulate`): the A@B sum is
 * finished first, then C + sum is formed in FP32 (one rounding), then rounded to C's dtype.
 * Blocked: four rows at a time against column blocks of B held in vector registers (this file's
 * own kernels, independent of the simulator's MAD so that the comparison stays independent); each
 * element still sums k ascending with the roundings above. */
#include "interp/interp_internal.h"

#include <stdlib.h>
#include <string.h>

bool interp_matmul_dims(const InterpMatmul *m, int64_t *M, int64_t *N, int64_t *K) {
    if (m->a->rank != 2 || m->b->rank != 2) return false;
    int64_t am = m->a_trans ? m->a->shape[1] : m->a->shape[0], ak = m->a_trans ? m->a->shape[0] : m->a->shape[1];
    int64_t bk = m->b_trans ? m->b->shape[1] : m->b->shape[0], bn = m->b_trans ? m->b->shape[0] : m->b->shape[1];
    *M = am;
    *N = bn;
    *K = ak;
    return ak == bk;
}

/* op(X) as a dense row-major [rows, cols] float matrix (double: for integer/FP32 exactness). */
static void *to_matrix(const InterpArray *x, bool trans, bool as_double) {
    int64_t r = x->shape[0], c = x->shape[1], n = r * c;
    void *buf = malloc((size_t)(n > 0 ? n : 1) * (as_double ? sizeof(double) : sizeof(float)));
    PTOC_ASSERT(buf, "out of memory");
    if (as_double && !trans)
        for (int64_t i = 0; i < n; i++) ((double *)buf)[i] = interp_get(x, i);
    else if (as_double)
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < c; j++) ((double *)buf)[j * r + i] = interp_get(x, i * c + j);
    else if (!trans) {
        float *f = buf;
        for (int64_t i = 0; i < n; i++) f[i] = (float)interp_get(x, i);
    } else
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < c; j++) ((float *)buf)[j * r + i] = (float)interp_get(x, i * c + j);
    return buf;
}

/* n elements of x from start by stride, as floats (exact for FP16/BF16/FP32 storage): the storage
 * switch hoisted out of the loop, which matters for the operand copies of a matmul. */
static void get_floats(const InterpArray *x, int64_t start, int64_t stride, int64_t n, float *out) {
    const void *d = x->data;
    switch (interp_store_of(x->dtype)) {
    case IS_F16: {                                     /* normal numbers branch-free (vectorises), then the rest */
        const uint16_t *h = (const uint16_t *)d + start;
        uint32_t special = 0;
        for (int64_t j = 0; j < n; j++) {
            uint32_t v = h[j * stride], e = (v >> 10) & 0x1f;
            special |= (uint32_t)(e == 0) | (uint32_t)(e == 0x1f);
            out[j] = interp_bits_f32(((v & 0x8000) << 16) | ((e + 112) << 23) | ((v & 0x3ff) << 13));
        }
        for (int64_t j = 0; special && j < n; j++) {
            uint32_t e = (h[j * stride] >> 10) & 0x1f;
            if (e == 0 || e == 0x1f) out[j] = interp_f16(h[j * stride]);
        }
        return;
    }
    case IS_F32: for (int64_t j = 0; j < n; j++) out[j] = ((const float *)d)[start + j * stride]; return;
    default: for (int64_t j = 0; j < n; j++) out[j] = (float)interp_get(x, start + j * stride); return;
    }
}

/* op(A)[i][k], read in place (no copy of A: fewer pages touched). */
static double a_at(const InterpMatmul *m, int64_t i, int64_t k, int64_t M, int64_t K) {
    return interp_get(m->a, m->a_trans ? k * M + i : i * K + k);
}

static double bias_at(const InterpMatmul *m, int64_t j) { return m->bias ? interp_get(m->bias, j) : 0.0; }

static void store_result(const InterpMatmul *m, InterpArray *res, int64_t idx, int64_t j, float sum) {
    if (m->bias) sum = sum + (float)bias_at(m, j);
    if (m->accumulate) sum = (float)interp_get(res, idx) + sum;
    interp_store(res, idx, sum);
}

/* ---------------------------------------------------------------- blocked kernels
 * Four rows of op(A) against a column block of B at a time, the block's sums held in vector
 * registers across the whole k loop. Lanes are output elements: each still starts at +0 and adds
 * its k-th term for k ascending, one rounding per addition (FP32 products: exact in double, then
 * one rounding to float) — the numerics of the plain i-k-j loop, only vectorised across columns.
 * B is copied once, as float (or double), padded with zero columns to a whole number of vectors;
 * the four rows of A are copied per block (zero rows below M; their sums are discarded). */
#define IM_ROWS 4

#define IM_KERNELS(SFX, W, TARGET)                                                                 \
    /* out[r][j] for r < 4, j < np (np a multiple of W): sums of a4[l][r] * B[l][j], float */        \
    TARGET static void half_block_##SFX(int64_t K, int64_t np, const float *a4, const float *B, float *out) { \
        typedef float V __attribute__((vector_size(4 * W)));                                        \
        int64_t j = 0;                                                                              \
        for (; j + 2 * W <= np; j += 2 * W) {                                                       \
            V s[IM_ROWS][2] = { { { 0 } } };                                                        \
            for (int64_t l = 0; l < K; l++) {                                                       \
                V b0, b1;                                                                           \
                memcpy(&b0, B + l * np + j, sizeof b0);                                             \
                memcpy(&b1, B + l * np + j + W, sizeof b1);                                         \
                _Pragma("GCC unroll 4") for (int r = 0; r < IM_ROWS; r++) {                         \
                    float x = a4[l * IM_ROWS + r];                                                  \
                    s[r][0] = s[r][0] + x * b0;                                                     \
                    s[r][1] = s[r][1] + x * b1;                                                     \
                }                                                                                   \
            }                                                                                       \
            for (int r = 0; r < IM_ROWS; r++) {                                                     \
                memcpy(out + r * np + j, &s[r][0], sizeof(V));                                      \
                memcpy(out + r * np + j + W, &s[r][1], sizeof(V));                                  \
            }                                                                                       \
        }                                                                                           \
        for (; j < np; j += W) {                                                                    \
            V s[IM_ROWS] = { { 0 } };                                                               \
            for (int64_t l = 0; l < K; l++) {                                                       \
                V b0;                                                                               \
                memcpy(&b0, B + l * np + j, sizeof b0);                                             \
                _Pragma("GCC unroll 4") for (int r = 0; r < IM_ROWS; r++) s[r] = s[r] + a4[l * IM_ROWS + r] * b0; \
            }                                                                                       \
            for (int r = 0; r < IM_ROWS; r++) memcpy(out + r * np + j, &s[r], sizeof(V));           \
        }                                                                                           \
    }                                                                                               \
    /* the same with double operands: s = (float)(s + a * b), s kept in double lanes */            \
    TARGET static void float_block_##SFX(int64_t K, int64_t np, const double *a4, const double *B, float *out) { \
        typedef double V __attribute__((vector_size(4 * W)));                                       \
        typedef float F __attribute__((vector_size(2 * W)));                                        \
        for (int64_t j = 0; j < np; j += W / 2) {                                                   \
            V s[IM_ROWS] = { { 0 } };                                                               \
            for (int64_t l = 0; l < K; l++) {                                                       \
                V b0;                                                                               \
                memcpy(&b0, B + l * np + j, sizeof b0);                                             \
                _Pragma("GCC unroll 4") for (int r = 0; r < IM_ROWS; r++)                           \
                    s[r] = __builtin_convertvector(__builtin_convertvector(s[r] + a4[l * IM_ROWS + r] * b0, F), V); \
            }                                                                                       \
            for (int r = 0; r < IM_ROWS; r++) {                                                     \
                F f = __builtin_convertvector(s[r], F);                                             \
                memcpy(out + r * np + j, &f, sizeof f);                                             \
            }                                                                                       \
        }                                                                                           \
    }

IM_KERNELS(gen, 4, )
#if defined(__x86_64__) && defined(__GNUC__)
IM_KERNELS(avx512, 16, __attribute__((target("avx512f"))))
/* PTOC_INTERP_ISA=generic forces the portable kernels (tests cover both). */
static bool im_wide(void) {
    const char *e = getenv("PTOC_INTERP_ISA");
    return !(e && !strcmp(e, "generic")) && __builtin_cpu_supports("avx512f");
}
#define IM_WIDE() im_wide()
#else
#define IM_WIDE() 0
#endif

/* Lanes per vector of the variant in use (the column padding). */
static int64_t im_lanes(void) { return IM_WIDE() ? 16 : 4; }

/* op(B) as a dense [K, np] matrix (zero columns from N to np), float or double. */
static void *b_padded(const InterpMatmul *m, int64_t K, int64_t N, int64_t np, bool as_double) {
    size_t eb = as_double ? sizeof(double) : sizeof(float);
    void *buf = calloc((size_t)(K * np > 0 ? K * np : 1), eb);
    PTOC_ASSERT(buf, "out of memory");
    const InterpArray *src = m->b;
    int64_t sl = m->b_trans ? 1 : N, sj = m->b_trans ? K : 1;   /* op(B)[l][j] = src[l * sl + j * sj] */
    for (int64_t l = 0; l < K; l++) {
        if (as_double) { double *d = (double *)buf + l * np; for (int64_t j = 0; j < N; j++) d[j] = interp_get(src, l * sl + j * sj); }
        else get_floats(src, l * sl, sj, N, (float *)buf + l * np);
    }
    return buf;
}

/* FP16/BF16 operands (float products are exact) and, with exact, FP32 / other float operands. */
static void mm_blocked(const InterpMatmul *m, InterpArray *res, int64_t M, int64_t N, int64_t K, bool exact) {
    int64_t lanes = im_lanes(), np = (N + lanes - 1) / lanes * lanes;
    if (exact && np % (lanes / 2)) np += lanes / 2;   /* double kernels step lanes / 2 */
    void *B = b_padded(m, K, N, np, exact);
    size_t eb = exact ? sizeof(double) : sizeof(float);
    void *a4 = malloc(eb * (size_t)(IM_ROWS * (K ? K : 1)));
    float *out = malloc(sizeof(float) * (size_t)(IM_ROWS * np)), *arow = malloc(sizeof(float) * (size_t)(K ? K : 1));
    PTOC_ASSERT(a4 && out && arow, "out of memory");
    for (int64_t i0 = 0; i0 < M; i0 += IM_ROWS) {
        int64_t rows = M - i0 < IM_ROWS ? M - i0 : IM_ROWS;
        if (exact)
            for (int64_t l = 0; l < K; l++)
                for (int r = 0; r < IM_ROWS; r++) ((double *)a4)[l * IM_ROWS + r] = r < rows ? a_at(m, i0 + r, l, M, K) : 0.0;
        else
            for (int r = 0; r < IM_ROWS; r++) {                  /* row i0 + r of op(A), then into the panel */
                if (r < rows) get_floats(m->a, m->a_trans ? i0 + r : (i0 + r) * K, m->a_trans ? M : 1, K, arow);
                for (int64_t l = 0; l < K; l++) ((float *)a4)[l * IM_ROWS + r] = r < rows ? arow[l] : 0.0f;
            }
        if (exact) { if (IM_WIDE()) float_block_avx512(K, np, a4, B, out); else float_block_gen(K, np, a4, B, out); }
        else if (IM_WIDE()) half_block_avx512(K, np, a4, B, out);
        else half_block_gen(K, np, a4, B, out);
        if (!m->bias && !m->accumulate && res->dtype == DT_FP32)   /* interp_round(FP32, float) is the float itself */
            for (int64_t r = 0; r < rows; r++) memcpy((float *)res->data + (i0 + r) * N, out + r * np, sizeof(float) * (size_t)N);
        else
            for (int64_t r = 0; r < rows; r++)
                for (int64_t j = 0; j < N; j++) store_result(m, res, (i0 + r) * N + j, j, out[r * np + j]);
    }
    free(out);
    free(arow);
    free(a4);
    free(B);
}

static void mm_int(const InterpMatmul *m, InterpArray *res, int64_t M, int64_t N, int64_t K) {
    double *B = to_matrix(m->b, m->b_trans, true);
    int64_t *row = malloc(sizeof(int64_t) * (size_t)(N ? N : 1));
    PTOC_ASSERT(row, "out of memory");
    for (int64_t i = 0; i < M; i++) {
        memset(row, 0, sizeof(int64_t) * (size_t)N);
        for (int64_t k = 0; k < K; k++) {
            int64_t a = (int64_t)a_at(m, i, k, M, K);
            const double *b = B + k * N;
            for (int64_t j = 0; j < N; j++) row[j] += a * (int64_t)b[j];
        }
        for (int64_t j = 0; j < N; j++) {
            double s = (double)row[j] + bias_at(m, j);
            if (m->accumulate) s += interp_get(res, i * N + j);
            interp_store(res, i * N + j, s);
        }
    }
    free(row);
    free(B);
}

void interp_matmul_run(const InterpMatmul *m, InterpArray *res) {
    int64_t M, N, K;
    PTOC_ASSERT(interp_matmul_dims(m, &M, &N, &K), "matmul operands not checked");
    PTOC_ASSERT(res->rank == 2 && res->shape[0] == M && res->shape[1] == N, "matmul result shape not checked");
    DType da = m->a->dtype, db = m->b->dtype;
    if (dtype_is_int(da) && dtype_is_int(db)) mm_int(m, res, M, N, K);
    else if ((da == DT_FP16 || da == DT_BF16) && (db == DT_FP16 || db == DT_BF16)) mm_blocked(m, res, M, N, K, false);
    else mm_blocked(m, res, M, N, K, true);
}
