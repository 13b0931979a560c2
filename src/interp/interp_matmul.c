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
    TARGET static void half_block_##SFX(int64_t K, int64_t np, const float *a4, const float *B, float *out, \
                                        bool first) {                                                \
        typedef float V __attribute__((vector_size(4 * W)));                                        \
        int64_t j = 0;                                                                              \
        for (; j + 2 * W <= np; j += 2 * W) {                                                       \
            V s[IM_ROWS][2] = { { { 0 } } };                                                        \
            for (int r = 0; !first && r < IM_ROWS; r++) {                                           \
                memcpy(&s[r][0], out + r * np + j, sizeof(V));                                      \
                memcpy(&s[r][1], out + r * np + j + W, sizeof(V));                                  \
            }                                                                                       \
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
            for (int r = 0; !first && r < IM_ROWS; r++) memcpy(&s[r], out + r * np + j, sizeof(V));  \
            for (int64_t l = 0; l < K; l++) {                                                       \
                V b0;                                                                               \
                memcpy(&b0, B + l * np + j, sizeof b0);                                             \
                _Pragma("GCC unroll 4") for (int r = 0; r < IM_ROWS; r++) s[r] = s[r] + a4[l * IM_ROWS + r] * b0; \
            }                                                                                       \
            for (int r = 0; r < IM_ROWS; r++) memcpy(out + r * np + j, &s[r], sizeof(V));           \
        }                                                                                           \
    }                                                                                               \
    /* the same with double operands: s = (float)(s + a * b), s kept in double lanes */            \
    TARGET static void float_block_##SFX(int64_t K, int64_t np, const double *a4, const double *B, float *out, \
                                         bool first) {                                               \
        typedef double V __attribute__((vector_size(4 * W)));                                       \
        typedef float F __attribute__((vector_size(2 * W)));                                        \
        for (int64_t j = 0; j < np; j += W / 2) {                                                   \
            V s[IM_ROWS] = { { 0 } };                                                               \
            for (int r = 0; !first && r < IM_ROWS; r++) {                                           \
                F f;                                                                                \
                memcpy(&f, out + r * np + j, sizeof f);                                             \
                s[r] = __builtin_convertvector(f, V);                                               \
            }                                                                                       \
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
/* The widest variant this CPU runs: 2 AVX-512, 1 AVX2 (no FMA: a fused multiply-add would round
 * once where the FP32 products must round twice), 0 portable. PTOC_INTERP_ISA=generic|avx2 forces
 * a narrower one (tests cover each). */
#if defined(__x86_64__) && defined(__GNUC__)
IM_KERNELS(avx512, 16, __attribute__((target("avx512f"))))
IM_KERNELS(avx2, 8, __attribute__((target("avx2"))))
static int im_isa(void) {
    const char *e = getenv("PTOC_INTERP_ISA");
    int cap = e && !strcmp(e, "generic") ? 0 : e && !strcmp(e, "avx2") ? 1 : 2;
    if (cap >= 2 && __builtin_cpu_supports("avx512f")) return 2;
    if (cap >= 1 && __builtin_cpu_supports("avx2")) return 1;
    return 0;
}
#else
static int im_isa(void) { return 0; }
#endif

/* Lanes per float vector of a variant (the column padding). */
static int64_t im_lanes(int isa) { return isa == 2 ? 16 : isa == 1 ? 8 : 4; }

static void half_block(int isa, int64_t K, int64_t np, const float *a4, const float *B, float *out, bool first) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == 2) { half_block_avx512(K, np, a4, B, out, first); return; }
    if (isa == 1) { half_block_avx2(K, np, a4, B, out, first); return; }
#endif
    half_block_gen(K, np, a4, B, out, first);
}

static void float_block(int isa, int64_t K, int64_t np, const double *a4, const double *B, float *out, bool first) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == 2) { float_block_avx512(K, np, a4, B, out, first); return; }
    if (isa == 1) { float_block_avx2(K, np, a4, B, out, first); return; }
#endif
    float_block_gen(K, np, a4, B, out, first);
}

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

/* Rows of op(A) by blocks of IM_MB, K by panels whose slice of B fits a core's L2 cache (the sums
 * go to the row block's buffer between panels: they are floats, so nothing changes), each row block
 * by groups of IM_ROWS against the panel. */
enum { IM_MB = 64, IM_PANEL_BYTES = 192 * 1024 };

/* Rows i0 .. i0 + rows of op(A), IM_ROWS-interleaved per group, as float or double (zero rows below M). */
static void a_panel(const InterpMatmul *m, int64_t i0, int64_t rows, int64_t M, int64_t K, bool exact, void *a4, float *arow) {
    for (int64_t g = 0; g * IM_ROWS < rows; g++) {
        int64_t base = g * IM_ROWS * K;
        for (int r = 0; r < IM_ROWS; r++) {
            int64_t i = i0 + g * IM_ROWS + r;
            bool in = g * IM_ROWS + r < rows;
            if (exact) {
                for (int64_t l = 0; l < K; l++) ((double *)a4)[base + l * IM_ROWS + r] = in ? a_at(m, i, l, M, K) : 0.0;
                continue;
            }
            if (in) get_floats(m->a, m->a_trans ? i : i * K, m->a_trans ? M : 1, K, arow);
            for (int64_t l = 0; l < K; l++) ((float *)a4)[base + l * IM_ROWS + r] = in ? arow[l] : 0.0f;
        }
    }
}

/* FP16/BF16 operands (float products are exact) and, with exact, FP32 / other float operands. */
static void mm_blocked(const InterpMatmul *m, InterpArray *res, int64_t M, int64_t N, int64_t K, bool exact) {
    int isa = im_isa();
    int64_t lanes = im_lanes(isa), np = (N + lanes - 1) / lanes * lanes;
    if (exact && np % (lanes / 2)) np += lanes / 2;   /* double kernels step lanes / 2 */
    void *B = b_padded(m, K, N, np, exact);
    size_t eb = exact ? sizeof(double) : sizeof(float);
    int64_t kc = IM_PANEL_BYTES / ((int64_t)eb * np);
    if (kc < 16) kc = 16;
    if (kc > K) kc = K;
    int64_t mb = M < IM_MB ? (M + IM_ROWS - 1) / IM_ROWS * IM_ROWS : IM_MB;
    void *a4 = malloc(eb * (size_t)(mb * (K ? K : 1)));
    float *out = malloc(sizeof(float) * (size_t)(mb * np)), *arow = malloc(sizeof(float) * (size_t)(K ? K : 1));
    PTOC_ASSERT(a4 && out && arow, "out of memory");
    for (int64_t i0 = 0; i0 < M; i0 += mb) {
        int64_t rows = M - i0 < mb ? M - i0 : mb;
        a_panel(m, i0, rows, M, K, exact, a4, arow);
        for (int64_t k0 = 0; k0 < K || k0 == 0; k0 += kc) {      /* K = 0: one pass that writes zeros */
            int64_t kn = K - k0 < kc ? K - k0 : kc;
            for (int64_t g = 0; g * IM_ROWS < rows; g++) {
                float *o = out + g * IM_ROWS * np;
                if (exact) float_block(isa, kn, np, (const double *)a4 + g * IM_ROWS * K + k0 * IM_ROWS, (const double *)B + k0 * np, o, k0 == 0);
                else half_block(isa, kn, np, (const float *)a4 + g * IM_ROWS * K + k0 * IM_ROWS, (const float *)B + k0 * np, o, k0 == 0);
            }
            if (kn == 0) break;
        }
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
