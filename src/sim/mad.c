/* sim/mad — the cube unit: tmatmul, tmatmul.acc, tmatmul.bias.
 *
 * Requires: Left (A), Right (B), Acc (and Bias) views of the run; the dense kernels of mad_kernel.c.
 * Produces: the accumulator tile, written in its physical (NZ, 16x16 boxes) layout.
 * Does: converts A and B once per instruction from their physical layouts into dense row-major
 * float (or int32) arrays — by runs of consecutive offsets, along rows or along columns, whichever
 * the layout makes contiguous (FP16 through a vectorised exact conversion) — multiplies them with
 * the packed kernel (summation in order of k, FP32), then reads-modifies-writes the accumulator
 * tile by runs of each row. */
#include "sim/sim_int.h"

#include <string.h>

/* ---------------------------------------------------------------- operands to dense */
/* FP16 -> float over n values, bit-identical to fp16_to_f32 (base/numeric.c) for every input:
 * normal numbers rebias the exponent, inf / NaN keep their payload, subnormals are man * 2^-24
 * (exact). W lanes at a time; instantiated portable and (x86) for AVX-512 and AVX2. */
#define FP16_RUN(NAME, W, TARGET)                                                                   \
    TARGET static void NAME(const uint8_t *src, int64_t n, float *out) {                            \
        typedef uint16_t H __attribute__((vector_size(2 * W)));                                      \
        typedef uint32_t U __attribute__((vector_size(4 * W)));                                      \
        typedef int32_t I __attribute__((vector_size(4 * W)));                                       \
        typedef float F __attribute__((vector_size(4 * W)));                                         \
        int64_t j = 0;                                                                              \
        for (; j + W <= n; j += W) {                                                                \
            H h;                                                                                    \
            memcpy(&h, src + 2 * j, sizeof h);                                                      \
            U x = __builtin_convertvector(h, U);                                                    \
            U sign = (x & 0x8000u) << 16, em = x & 0x7fffu;                                         \
            U nb = (em << 13) + (112u << 23);                                                       \
            U infnan = (U)(em >= 0x7c00u), sub = (U)(em < 0x400u);                                  \
            nb += infnan & (112u << 23);                                                            \
            F f = __builtin_convertvector((I)em, F) * (1.0f / 16777216.0f);                         \
            U r = sign | (sub & (U)f) | (~sub & nb);                                                \
            memcpy(out + j, &r, sizeof r);                                                          \
        }                                                                                           \
        for (; j < n; j++) { uint16_t h; memcpy(&h, src + 2 * j, 2); out[j] = fp16_to_f32(h); }     \
    }
FP16_RUN(fp16_run_gen, 8, )
#if defined(__x86_64__) && defined(__GNUC__)
FP16_RUN(fp16_run_512, 16, __attribute__((target("avx512f"))))
FP16_RUN(fp16_run_256, 8, __attribute__((target("avx2"))))
void sim_fp16_run(const uint8_t *src, int64_t n, float *out) {
    if (n >= 16 && __builtin_cpu_supports("avx512f")) fp16_run_512(src, n, out);
    else if (n >= 8 && __builtin_cpu_supports("avx2")) fp16_run_256(src, n, out);
    else fp16_run_gen(src, n, out);
}
#else
void sim_fp16_run(const uint8_t *src, int64_t n, float *out) { fp16_run_gen(src, n, out); }
#endif

/* n consecutive elements of dtype t at src -> float (the cube reads operands as float). */
static void f32_run(DType t, int eb, const uint8_t *src, int64_t n, float *out) {
    switch (t) {
    case DT_FP16: sim_fp16_run(src, n, out); return;
    case DT_FP32: memcpy(out, src, sizeof(float) * (size_t)n); return;
    case DT_BF16:
        for (int64_t j = 0; j < n; j++) { uint16_t h; memcpy(&h, src + 2 * j, 2); uint32_t u = (uint32_t)h << 16; memcpy(&out[j], &u, 4); }
        return;
    default: for (int64_t j = 0; j < n; j++) out[j] = (float)sim_read_elem(t, src + j * eb); return;
    }
}

static void i32_run(DType t, int eb, const uint8_t *src, int64_t n, int32_t *out) {
    if (t == DT_INT8) { for (int64_t j = 0; j < n; j++) out[j] = (int8_t)src[j]; return; }
    for (int64_t j = 0; j < n; j++) out[j] = (int32_t)sim_read_elem(t, src + j * eb);
}

#define RUN_CHUNK 64

/* Dense row-major copy (float, or int32 when f is NULL) of the leading rows x cols of a view. The
 * layout is separable (offset = roff[i] + coff[j]), so runs of consecutive offsets are the same in
 * every row (or column): copy along whichever direction has them (Left / Acc tiles: along rows;
 * Right tiles: along columns, then scattered into the dense rows). */
static void to_dense(const SimView *v, int64_t rows, int64_t cols, float *f, int32_t *q) {
    DType t = v->buf->dtype;
    int eb = v->eb;
    bool along_rows = cols < 2 || v->coff[1] == v->coff[0] + 1 || !(rows > 1 && v->roff[1] == v->roff[0] + 1);
    if (along_rows) {
        for (int64_t j = 0; j < cols;) {
            int64_t e = sim_run_end(v->crun, j, cols);
            for (int64_t i = 0; i < rows; i++) {
                const uint8_t *src = v->base + (v->roff[i] + v->coff[j]) * eb;
                if (f) f32_run(t, eb, src, e - j, f + i * cols + j);
                else i32_run(t, eb, src, e - j, q + i * cols + j);
            }
            j = e;
        }
        return;
    }
    float tf[RUN_CHUNK];
    int32_t ti[RUN_CHUNK];
    for (int64_t i = 0; i < rows;) {
        int64_t e = sim_run_end(v->rrun, i, rows);
        for (int64_t i0 = i; i0 < e; i0 += RUN_CHUNK) {
            int64_t len = e - i0 < RUN_CHUNK ? e - i0 : RUN_CHUNK;
            for (int64_t j = 0; j < cols; j++) {
                const uint8_t *src = v->base + (v->roff[i0] + v->coff[j]) * eb;
                if (f) { f32_run(t, eb, src, len, tf); for (int64_t r = 0; r < len; r++) f[(i0 + r) * cols + j] = tf[r]; }
                else { i32_run(t, eb, src, len, ti); for (int64_t r = 0; r < len; r++) q[(i0 + r) * cols + j] = ti[r]; }
            }
        }
        i = e;
    }
}

/* ---------------------------------------------------------------- accumulator write-back */
/* Bias row as the cube adds it: float (FP32 path) or int32 (INT8 path) per column. */
static void bias_row(const SimView *bias, int64_t n, float *bf, int32_t *bi) {
    for (int64_t j = 0; j < n; j++) {
        double x = sim_read_elem(bias->buf->dtype, bias->base + (bias->roff[0] + bias->coff[j]) * bias->eb);
        if (bf) bf[j] = (float)x; else bi[j] = (int32_t)x;
    }
}

/* End of a run of columns consecutive in dst and (if any) init. */
static int64_t acc_run_end(const SimView *dst, const SimView *init, int64_t j, int64_t n) {
    int64_t e = sim_run_end(dst->crun, j, n);
    if (init) { int64_t e2 = sim_run_end(init->crun, j, n); if (e2 < e) e = e2; }
    return e;
}

/* q[t] = ((init ? init[t] + p[t] : p[t]) + (bias ? bias[t] : 0)), t < n, in float, 8 lanes at a time
 * (the same two roundings per element as the scalar form; init may be q itself). */
static void add_run(float *q, const float *init, const float *p, const float *bias, int64_t n) {
    typedef float V __attribute__((vector_size(32)));
    int64_t t = 0;
    for (; t + 8 <= n; t += 8) {
        V x, y;
        memcpy(&x, p + t, sizeof x);
        if (init) { memcpy(&y, init + t, sizeof y); x = y + x; }
        if (bias) { memcpy(&y, bias + t, sizeof y); x = x + y; }
        memcpy(q + t, &x, sizeof x);
    }
    for (; t < n; t++) {
        float x = p[t];
        if (init) x = init[t] + x;
        if (bias) x = x + bias[t];
        q[t] = x;
    }
}

/* dst[i][j] = (init ? init[i][j] : 0) + p[i][j] (+ bias[j]), FP32 into an FP32 tile: by runs of
 * each row; elements are still read and written in row-major order (init may alias dst). */
static void write_acc_f32(const SimView *dst, const SimView *init, const float *bias, int64_t m, int64_t n, const float *p) {
    bool init32 = init && init->buf->dtype == DT_FP32;
    for (int64_t j = 0; j < n;) {
        int64_t e = acc_run_end(dst, init32 ? init : NULL, j, n), len = e - j;
        for (int64_t i = 0; i < m; i++) {
            float *q = (float *)(void *)(dst->base + (dst->roff[i] + dst->coff[j]) * 4);
            const float *pr = p + i * n + j;
            if (!init && !bias) { memcpy(q, pr, sizeof(float) * (size_t)len); continue; }
            const uint8_t *irow = init ? init->base + init->roff[i] * init->eb : NULL;
            const float *ir = init32 ? (const float *)(const void *)(irow + init->coff[j] * 4) : NULL;
            if (!init || (init32 && (ir == q || ir + len <= q || q + len <= ir))) {   /* lanes independent */
                add_run(q, ir, pr, bias ? bias + j : NULL, len);
                continue;
            }
            for (int64_t t = 0; t < len; t++) {
                float x = pr[t], y;
                if (init32) { memcpy(&y, irow + (init->coff[j] + t) * 4, 4); x = y + x; }
                else if (init) x = (float)sim_read_elem(init->buf->dtype, irow + init->coff[j + t] * init->eb) + x;
                if (bias) x = x + bias[j + t];
                memcpy(q + t, &x, 4);
            }
        }
        j = e;
    }
}

/* The same for INT32 sums (wrapping) and for any other destination dtype (element by element). */
static void write_acc_any(const SimView *dst, const SimView *init, const float *bf, const int32_t *bi, int64_t m,
                          int64_t n, const float *pf, const int32_t *pi) {
    DType dt = dst->buf->dtype;
    for (int64_t i = 0; i < m; i++) {
        uint8_t *drow = dst->base + dst->roff[i] * dst->eb;
        const uint8_t *irow = init ? init->base + init->roff[i] * init->eb : NULL;
        for (int64_t j = 0; j < n; j++) {
            uint8_t *q = drow + dst->coff[j] * dst->eb;
            if (pi) {
                uint32_t x = (uint32_t)pi[i * n + j];
                if (irow) x += (uint32_t)(int32_t)sim_read_elem(init->buf->dtype, irow + init->coff[j] * init->eb);
                if (bi) x += (uint32_t)bi[j];
                int32_t v = (int32_t)x;
                if (dt == DT_INT32) memcpy(q, &v, 4); else sim_write_elem(dt, q, v);
                continue;
            }
            float x = pf[i * n + j];
            if (irow) x = (float)sim_read_elem(init->buf->dtype, irow + init->coff[j] * init->eb) + x;
            if (bf) x = x + bf[j];
            sim_write_elem(dt, q, x);
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
    int64_t ws = sim_mad_ws_elems(m, n, k);
    if (a->buf->dtype == DT_INT8) {   /* dense A | dense B | kernel workspace; C; bias row */
        vec_reserve(&c->ia, (int)(m * k + k * n + ws)); vec_reserve(&c->ic, (int)(m * n + n));
        int32_t *da = c->ia.data, *db = da + m * k, *bi = bias ? c->ic.data + m * n : NULL;
        to_dense(a, m, k, NULL, da);
        to_dense(b, k, n, NULL, db);
        sim_mad_i32_ws(m, n, k, da, db, c->ic.data, db + k * n);
        if (bias) bias_row(bias, n, NULL, bi);
        write_acc_any(dst, init, NULL, bi, m, n, NULL, c->ic.data);
        return true;
    }
    vec_reserve(&c->fa, (int)(m * k + k * n + ws)); vec_reserve(&c->fc, (int)(m * n + n));
    float *da = c->fa.data, *db = da + m * k, *bf = bias ? c->fc.data + m * n : NULL;
    to_dense(a, m, k, da, NULL);
    to_dense(b, k, n, db, NULL);
    sim_mad_f32_ws(m, n, k, da, db, c->fc.data, db + k * n);
    if (bias) bias_row(bias, n, bf, NULL);
    if (dst->buf->dtype == DT_FP32) write_acc_f32(dst, init, bf, m, n, c->fc.data);
    else write_acc_any(dst, init, bf, NULL, m, n, c->fc.data, NULL);
    return true;
}
