/* interp_matmul — the cube's numerics for the interpreter: C = op(A) @ op(B) [+ bias] [+ C].
 *
 * Requires: operands already checked to be 2-D with matching K (interp_matmul_dims).
 * Produces: the result rounded to the result array's dtype.
 * Does: FP16/BF16 operands: products are exact in float, summed in a float running sum with k
 * ascending (one rounding per addition, as the cube's FP32 accumulator). FP32 operands: each product
 * is formed exactly in double and added to the float sum with one rounding to float. Integer
 * operands: exact int64 sums. Accumulation into an existing C (`accumulate`): the A@B sum is
 * finished first, then C + sum is formed in FP32 (one rounding), then rounded to C's dtype.
 * Loop order i-k-j with a per-row accumulator vector: each element still sums k ascending, and the
 * inner j loop is contiguous and independent (vectorisable). */
#include "interp/interp_internal.h"

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
    const double *src = x->data;
    if (as_double && !trans) memcpy(buf, src, sizeof(double) * (size_t)n);
    else if (as_double)
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < c; j++) ((double *)buf)[j * r + i] = src[i * c + j];
    else if (!trans) {
        float *f = buf;
        for (int64_t i = 0; i < n; i++) f[i] = (float)src[i];
    } else
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < c; j++) ((float *)buf)[j * r + i] = (float)src[i * c + j];
    return buf;
}

/* op(A)[i][k], read in place (no copy of A: fewer pages touched). */
static double a_at(const InterpMatmul *m, int64_t i, int64_t k, int64_t M, int64_t K) {
    return m->a_trans ? m->a->data[k * M + i] : m->a->data[i * K + k];
}

static double bias_at(const InterpMatmul *m, int64_t j) { return m->bias ? m->bias->data[j] : 0.0; }

static void store_result(const InterpMatmul *m, InterpArray *res, int64_t idx, int64_t j, float sum) {
    if (m->bias) sum = sum + (float)bias_at(m, j);
    if (m->accumulate) sum = (float)res->data[idx] + sum;
    res->data[idx] = interp_round(res->dtype, sum);
}

/* row[j] += a * b[j]: independent lanes (each element still sums k ascending), vectorisable. */
static void axpy_f(float *restrict row, float a, const float *restrict b, int64_t n) {
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {   /* written out so that -O2 vectorises it */
        row[j] += a * b[j]; row[j + 1] += a * b[j + 1]; row[j + 2] += a * b[j + 2]; row[j + 3] += a * b[j + 3];
        row[j + 4] += a * b[j + 4]; row[j + 5] += a * b[j + 5]; row[j + 6] += a * b[j + 6]; row[j + 7] += a * b[j + 7];
    }
    for (; j < n; j++) row[j] += a * b[j];
}

/* FP16/BF16 operands: float products are exact. */
static void mm_half(const InterpMatmul *m, InterpArray *res, int64_t M, int64_t N, int64_t K) {
    float *B = to_matrix(m->b, m->b_trans, false);
    float *row = malloc(sizeof(float) * (size_t)(N ? N : 1));
    PTOC_ASSERT(row, "out of memory");
    for (int64_t i = 0; i < M; i++) {
        memset(row, 0, sizeof(float) * (size_t)N);
        for (int64_t k = 0; k < K; k++) {
            axpy_f(row, (float)a_at(m, i, k, M, K), B + k * N, N);
        }
        for (int64_t j = 0; j < N; j++) store_result(m, res, i * N + j, j, row[j]);
    }
    free(row);
    free(B);
}

/* FP32 (and other float) operands: exact double product, one rounding to float per addition. */
static void mm_float(const InterpMatmul *m, InterpArray *res, int64_t M, int64_t N, int64_t K) {
    double *B = to_matrix(m->b, m->b_trans, true);
    float *row = malloc(sizeof(float) * (size_t)(N ? N : 1));
    PTOC_ASSERT(row, "out of memory");
    for (int64_t i = 0; i < M; i++) {
        memset(row, 0, sizeof(float) * (size_t)N);
        for (int64_t k = 0; k < K; k++) {
            double a = a_at(m, i, k, M, K);
            const double *b = B + k * N;
            for (int64_t j = 0; j < N; j++) row[j] = (float)((double)row[j] + a * b[j]);
        }
        for (int64_t j = 0; j < N; j++) store_result(m, res, i * N + j, j, row[j]);
    }
    free(row);
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
            if (m->accumulate) s += res->data[i * N + j];
            res->data[i * N + j] = interp_round(res->dtype, s);
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
    else if ((da == DT_FP16 || da == DT_BF16) && (db == DT_FP16 || db == DT_BF16)) mm_half(m, res, M, N, K);
    else mm_float(m, res, M, N, K);
}
