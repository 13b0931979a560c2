/* sim/mad — the cube unit: tmatmul, tmatmul.acc, tmatmul.bias, and the dense MAD kernel.
 *
 * Requires: Left (A), Right (B), Acc (and Bias) views of the run.
 * Produces: the accumulator tile, written in its physical (NZ, 16x16 boxes) layout.
 * Does: converts A and B once from their physical layouts into dense row-major float (or int32)
 * arrays, multiplies with a cache-blocked, register-blocked kernel whose inner loops the compiler
 * vectorises (summation in order of k, FP32), then reads-modifies-writes the accumulator tile. */
#include "sim/sim_int.h"

#include <string.h>

#define MR 4     /* micro-tile rows */
#define NR 16    /* micro-tile columns */
#define KC 256   /* k block (B panel rows kept in cache) */

/* c[0..MR) x [0..NR) += a[0..MR) x [0..kc) * b[0..kc) x [0..NR), sequential in k. */
static void micro_4x16(int64_t kc, const float *a, int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc) {
    float c0[NR], c1[NR], c2[NR], c3[NR];
    memcpy(c0, c, sizeof c0);
    memcpy(c1, c + ldc, sizeof c1);
    memcpy(c2, c + 2 * ldc, sizeof c2);
    memcpy(c3, c + 3 * ldc, sizeof c3);
    for (int64_t l = 0; l < kc; l++) {
        const float *bl = b + l * ldb;
        float a0 = a[l], a1 = a[lda + l], a2 = a[2 * lda + l], a3 = a[3 * lda + l];
        for (int j = 0; j < NR; j++) c0[j] += a0 * bl[j];
        for (int j = 0; j < NR; j++) c1[j] += a1 * bl[j];
        for (int j = 0; j < NR; j++) c2[j] += a2 * bl[j];
        for (int j = 0; j < NR; j++) c3[j] += a3 * bl[j];
    }
    memcpy(c, c0, sizeof c0);
    memcpy(c + ldc, c1, sizeof c1);
    memcpy(c + 2 * ldc, c2, sizeof c2);
    memcpy(c + 3 * ldc, c3, sizeof c3);
}

/* Edge tiles: the same arithmetic in the same order, any size. */
static void micro_edge(int64_t mr, int64_t nr, int64_t kc, const float *a, int64_t lda, const float *b, int64_t ldb,
                       float *c, int64_t ldc) {
    for (int64_t i = 0; i < mr; i++)
        for (int64_t l = 0; l < kc; l++) {
            float ai = a[i * lda + l];
            const float *bl = b + l * ldb;
            float *ci = c + i * ldc;
            for (int64_t j = 0; j < nr; j++) ci[j] += ai * bl[j];
        }
}

void sim_mad_f32(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c) {
    memset(c, 0, sizeof(float) * (size_t)(m * n));
    for (int64_t l0 = 0; l0 < k; l0 += KC) {
        int64_t kc = k - l0 < KC ? k - l0 : KC;
        for (int64_t j0 = 0; j0 < n; j0 += NR) {
            int64_t nr = n - j0 < NR ? n - j0 : NR;
            for (int64_t i0 = 0; i0 < m; i0 += MR) {
                int64_t mr = m - i0 < MR ? m - i0 : MR;
                const float *ap = a + i0 * k + l0;
                const float *bp = b + l0 * n + j0;
                float *cp = c + i0 * n + j0;
                if (mr == MR && nr == NR) micro_4x16(kc, ap, k, bp, n, cp, n);
                else micro_edge(mr, nr, kc, ap, k, bp, n, cp, n);
            }
        }
    }
}

/* Dense row-major float copy of rows x cols of a view. */
static void to_dense_f32(const SimView *v, int64_t rows, int64_t cols, float *out) {
    DType t = v->buf->dtype;
    for (int64_t i = 0; i < rows; i++) {
        const uint8_t *row = v->base + v->roff[i] * v->eb;
        float *o = out + i * cols;
        if (t == DT_FP16) {
            for (int64_t j = 0; j < cols; j++) { uint16_t h; memcpy(&h, row + v->coff[j] * 2, 2); o[j] = fp16_to_f32(h); }
        } else if (t == DT_FP32) {
            for (int64_t j = 0; j < cols; j++) memcpy(&o[j], row + v->coff[j] * 4, 4);
        } else {
            for (int64_t j = 0; j < cols; j++) o[j] = (float)sim_read_elem(t, row + v->coff[j] * v->eb);
        }
    }
}

static void to_dense_i32(const SimView *v, int64_t rows, int64_t cols, int32_t *out) {
    for (int64_t i = 0; i < rows; i++) {
        const uint8_t *row = v->base + v->roff[i] * v->eb;
        for (int64_t j = 0; j < cols; j++) out[i * cols + j] = (int32_t)sim_read_elem(v->buf->dtype, row + v->coff[j] * v->eb);
    }
}

static void mad_i32(int64_t m, int64_t n, int64_t k, const int32_t *a, const int32_t *b, int32_t *c) {
    memset(c, 0, sizeof(int32_t) * (size_t)(m * n));
    for (int64_t i = 0; i < m; i++)
        for (int64_t l = 0; l < k; l++) {
            uint32_t ai = (uint32_t)a[i * k + l];
            const int32_t *bl = b + l * n;
            int32_t *ci = c + i * n;
            for (int64_t j = 0; j < n; j++) ci[j] = (int32_t)((uint32_t)ci[j] + ai * (uint32_t)bl[j]);
        }
}

/* dst[i][j] = (init ? init[i][j] : 0) + (bias ? bias[0][j] : 0) + p[i][j], p dense m x n. */
static void write_acc(const SimView *dst, const SimView *init, const SimView *bias, int64_t m, int64_t n,
                      const float *pf, const int32_t *pi) {
    DType dt = dst->buf->dtype;
    for (int64_t i = 0; i < m; i++) {
        uint8_t *drow = dst->base + dst->roff[i] * dst->eb;
        const uint8_t *irow = init ? init->base + init->roff[i] * init->eb : NULL;
        for (int64_t j = 0; j < n; j++) {
            uint8_t *q = drow + dst->coff[j] * dst->eb;
            if (pi) {
                uint32_t x = (uint32_t)pi[i * n + j];
                if (irow) x += (uint32_t)(int32_t)sim_read_elem(init->buf->dtype, irow + init->coff[j] * init->eb);
                if (bias) x += (uint32_t)(int32_t)sim_read_elem(bias->buf->dtype, bias->base + (bias->roff[0] + bias->coff[j]) * bias->eb);
                int32_t v = (int32_t)x;
                if (dt == DT_INT32) memcpy(q, &v, 4); else sim_write_elem(dt, q, v);
                continue;
            }
            float x = pf[i * n + j];
            if (irow) x = (float)sim_read_elem(init->buf->dtype, irow + init->coff[j] * init->eb) + x;
            if (bias) x = x + (float)sim_read_elem(bias->buf->dtype, bias->base + (bias->roff[0] + bias->coff[j]) * bias->eb);
            if (dt == DT_FP32) memcpy(q, &x, 4); else sim_write_elem(dt, q, x);
        }
    }
}

static bool check_matmul(SimRun *s, const MirInst *i, int64_t *m, int64_t *n, int64_t *k) {
    if (i->src1 < 0 || i->src1 >= s->k->nbufs) return sim_hard_error(s, i, "matmul without a right operand");
    const MirBuf *a = &s->k->bufs[i->src0], *b = &s->k->bufs[i->src1], *c = &s->k->bufs[i->dst];
    *m = a->valid_rows; *k = a->valid_cols; *n = b->valid_cols;
    if (*m < 1 || *k < 1 || *n < 1 || *m > 4095 || *k > 4095 || *n > 4095)
        return sim_hard_error(s, i, "matmul: m, k, n = %lld, %lld, %lld outside [1, 4095]", (long long)*m, (long long)*k, (long long)*n);
    if (b->valid_rows < *k || *m > c->rows || *n > c->cols)
        return sim_hard_error(s, i, "matmul: operand shapes disagree (%s %lldx%lld, %s %lldx%lld, %s %lldx%lld)",
                              a->name, (long long)*m, (long long)*k, b->name, (long long)b->valid_rows, (long long)*n,
                              c->name, (long long)c->rows, (long long)c->cols);
    if (a->dtype != b->dtype) return sim_hard_error(s, i, "matmul: operand dtypes differ");
    bool ok = (a->dtype == DT_INT8 && c->dtype == DT_INT32) ||
              ((a->dtype == DT_FP16 || a->dtype == DT_BF16 || a->dtype == DT_FP32) && c->dtype == DT_FP32);
    if (!ok) return sim_hard_error(s, i, "matmul: unsupported dtypes (%s, %s, %s)", dtype_name(c->dtype),
                                   dtype_name(a->dtype), dtype_name(b->dtype));
    if (i->op == MI_TMATMUL_BIAS && (i->src2 < 0 || s->k->bufs[i->src2].cols < *n))
        return sim_hard_error(s, i, "matmul.bias: bias tile missing or narrower than n");
    return true;
}

bool sim_exec_matmul(SimRun *s, const SimDyn *d) {
    const MirInst *i = d->inst;
    int64_t m = 0, n = 0, k = 0;
    if (!check_matmul(s, i, &m, &n, &k)) return false;
    SimCore *c = s->c;
    const SimView *a = &s->views[i->src0], *b = &s->views[i->src1], *dst = &s->views[i->dst];
    const SimView *init = NULL, *bias = NULL;
    if (i->op == MI_TMATMUL_ACC) init = i->src2 >= 0 ? &s->views[i->src2] : dst;
    if (i->op == MI_TMATMUL_BIAS) bias = &s->views[i->src2];
    if (a->buf->dtype == DT_INT8) {
        vec_reserve(&c->ia, (int)(m * k)); vec_reserve(&c->ib, (int)(k * n)); vec_reserve(&c->ic, (int)(m * n));
        to_dense_i32(a, m, k, c->ia.data);
        to_dense_i32(b, k, n, c->ib.data);
        mad_i32(m, n, k, c->ia.data, c->ib.data, c->ic.data);
        write_acc(dst, init, bias, m, n, NULL, c->ic.data);
        return true;
    }
    vec_reserve(&c->fa, (int)(m * k)); vec_reserve(&c->fb, (int)(k * n)); vec_reserve(&c->fc, (int)(m * n));
    to_dense_f32(a, m, k, c->fa.data);
    to_dense_f32(b, k, n, c->fb.data);
    sim_mad_f32(m, n, k, c->fa.data, c->fb.data, c->fc.data);
    write_acc(dst, init, bias, m, n, c->fc.data, NULL);
    return true;
}
