/* torch_eval — the array half of the torch-expression evaluator (header torch_eval.h): TArr and the
 * torch operations of spec/language.md §5.3 on it, in float64.
 *
 * Requires: base (checked_mul, dtype_convert).
 * Produces: new arrays (refs 1) or NULL with a message.
 * Does: torch semantics where the subset needs them: broadcasting from the right, matmul over the
 *       last two dims (batched when both are 3-D), reductions with dim / keepdim, softmax as
 *       exp(x - max) / sum, cat, casts rounding with dtype_convert (float -> int truncates), slices
 *       with Python clamping. Result dtypes follow torch promotion (labels only, no rounding). */
#include "driver/torch_eval.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

TArr *tarr_new(DType dt, int rank, const int64_t *dims) {
    PTOC_ASSERT(rank >= 0 && rank <= TARR_MAX_RANK, "tarr rank");
    int64_t n = 1;
    for (int i = 0; i < rank; i++)
        if (dims[i] < 0 || !checked_mul(n, dims[i], &n) || n > ((int64_t)1 << 28)) return NULL;
    TArr *a = calloc(1, sizeof *a);
    PTOC_ASSERT(a, "out of memory");
    a->refs = 1, a->dtype = dt, a->rank = rank, a->n = n;
    if (rank) memcpy(a->dims, dims, sizeof(int64_t) * (size_t)rank);
    a->d = calloc((size_t)(n ? n : 1), sizeof(double));
    PTOC_ASSERT(a->d, "out of memory");
    return a;
}

TArr *tarr_ref(TArr *a) { if (a) a->refs++; return a; }

void tarr_unref(TArr *a) {
    if (!a || --a->refs > 0) return;
    free(a->d);
    free(a);
}

/* torch promotion of two tensor dtypes (float beats int; FP16 + BF16 -> FP32; wider wins). */
static DType promote(DType a, DType b) {
    if (a == b) return a;
    bool fa = dtype_is_float(a), fb = dtype_is_float(b);
    if (fa != fb) return fa ? a : b;
    if (fa && dtype_bits(a) == 16 && dtype_bits(b) == 16) return DT_FP32;
    if (a == DT_BOOL) return b;
    if (b == DT_BOOL) return a;
    return dtype_bits(a) >= dtype_bits(b) ? a : b;
}

static void strides(const TArr *a, int rank, int64_t *st) {
    /* strides of a broadcast into `rank` dims (0 on broadcast dims and missing leading dims) */
    int64_t s = 1;
    for (int i = rank - 1; i >= 0; i--) {
        int k = i - (rank - a->rank);
        st[i] = k < 0 || a->dims[k] == 1 ? 0 : s;
        if (k >= 0) s *= a->dims[k];
    }
}

static double apply(TBinOp op, double x, double y) {
    switch (op) {
    case TB_ADD: return x + y;
    case TB_SUB: return x - y;
    case TB_MUL: return x * y;
    case TB_DIV: return x / y;
    case TB_POW: return y == 2.0 ? x * x : pow(x, y);
    case TB_MAX: return isnan(x) || isnan(y) ? NAN : fmax(x, y);
    case TB_MIN: return isnan(x) || isnan(y) ? NAN : fmin(x, y);
    }
    return 0;
}

TArr *tarr_binary(TBinOp op, const TArr *a, const TArr *b, char *err, size_t n) {
    int rank = a->rank > b->rank ? a->rank : b->rank;
    int64_t dims[TARR_MAX_RANK];
    for (int i = 0; i < rank; i++) {
        int ka = i - (rank - a->rank), kb = i - (rank - b->rank);
        int64_t da = ka < 0 ? 1 : a->dims[ka], db = kb < 0 ? 1 : b->dims[kb];
        if (da != db && da != 1 && db != 1) {
            snprintf(err, n, "shapes do not broadcast: dim %d is %lld and %lld", i, (long long)da, (long long)db);
            return NULL;
        }
        dims[i] = da == 1 ? db : da;
    }
    DType dt = promote(a->dtype, b->dtype);
    if (op == TB_DIV && !dtype_is_float(dt)) dt = DT_FP32;     /* true division */
    TArr *r = tarr_new(dt, rank, dims);
    if (!r) { snprintf(err, n, "result too large"); return NULL; }
    int64_t sa[TARR_MAX_RANK], sb[TARR_MAX_RANK], idx[TARR_MAX_RANK] = { 0 };
    strides(a, rank, sa), strides(b, rank, sb);
    int64_t oa = 0, ob = 0;
    for (int64_t e = 0; e < r->n; e++) {
        r->d[e] = apply(op, a->d[oa], b->d[ob]);
        for (int i = rank - 1; i >= 0; i--) {       /* odometer */
            oa += sa[i], ob += sb[i];
            if (++idx[i] < dims[i]) break;
            oa -= sa[i] * dims[i], ob -= sb[i] * dims[i], idx[i] = 0;
        }
    }
    return r;
}

TArr *tarr_unary(TUnOp op, const TArr *a) {
    TArr *r = tarr_new(a->dtype, a->rank, a->dims);
    if (op != TU_NEG && op != TU_ABS && op != TU_RELU && !dtype_is_float(r->dtype)) r->dtype = DT_FP32;
    for (int64_t i = 0; i < a->n; i++) {
        double x = a->d[i];
        switch (op) {
        case TU_NEG: x = -x; break;
        case TU_EXP: x = exp(x); break;
        case TU_SQRT: x = sqrt(x); break;
        case TU_RSQRT: x = 1.0 / sqrt(x); break;
        case TU_RELU: x = x > 0 ? x : (isnan(x) ? x : 0.0); break;
        case TU_SIGMOID: x = 1.0 / (1.0 + exp(-x)); break;
        case TU_ABS: x = fabs(x); break;
        }
        r->d[i] = x;
    }
    return r;
}

TArr *tarr_matmul(const TArr *a, const TArr *b, char *err, size_t n) {
    bool batched = a->rank == 3 && b->rank == 3;
    if (!batched && (a->rank != 2 || b->rank != 2)) {
        snprintf(err, n, "matmul of a rank-%d and a rank-%d tensor (supported: 2-D x 2-D, 3-D x 3-D)", a->rank, b->rank);
        return NULL;
    }
    int o = batched ? 1 : 0;
    int64_t B = batched ? a->dims[0] : 1, M = a->dims[o], K = a->dims[o + 1], N = b->dims[o + 1];
    if (b->dims[o] != K || (batched && b->dims[0] != B)) {
        snprintf(err, n, "matmul shapes do not match: inner dims %lld and %lld", (long long)K, (long long)b->dims[o]);
        return NULL;
    }
    int64_t dims[3] = { B, M, N };
    TArr *r = tarr_new(promote(a->dtype, b->dtype), batched ? 3 : 2, batched ? dims : dims + 1);
    if (!r) { snprintf(err, n, "result too large"); return NULL; }
    for (int64_t q = 0; q < B; q++)
        for (int64_t i = 0; i < M; i++)
            for (int64_t k = 0; k < K; k++) {
                double x = a->d[(q * M + i) * K + k];
                const double *brow = b->d + (q * K + k) * N;
                double *rrow = r->d + (q * M + i) * N;
                for (int64_t j = 0; j < N; j++) rrow[j] += x * brow[j];
            }
    return r;
}

static bool norm_dim(int *d, int rank, char *err, size_t n) {
    int r = rank ? rank : 1;
    if (*d < -r || *d >= r) { snprintf(err, n, "dim %d out of range for a rank-%d tensor", *d, rank); return false; }
    if (*d < 0) *d += r;
    return true;
}

/* A general permutation copy: r has a's dims permuted by perm (r dim i = a dim perm[i]). */
static TArr *permute(const TArr *a, const int *perm) {
    int64_t dims[TARR_MAX_RANK], ast[TARR_MAX_RANK], st[TARR_MAX_RANK], idx[TARR_MAX_RANK] = { 0 };
    int64_t s = 1;
    for (int i = a->rank - 1; i >= 0; i--) ast[i] = s, s *= a->dims[i];
    for (int i = 0; i < a->rank; i++) dims[i] = a->dims[perm[i]], st[i] = ast[perm[i]];
    TArr *r = tarr_new(a->dtype, a->rank, dims);
    int64_t off = 0;
    for (int64_t e = 0; e < r->n; e++) {
        r->d[e] = a->d[off];
        for (int i = a->rank - 1; i >= 0; i--) {
            off += st[i];
            if (++idx[i] < dims[i]) break;
            off -= st[i] * dims[i], idx[i] = 0;
        }
    }
    return r;
}

TArr *tarr_transpose(const TArr *a, int d0, int d1, char *err, size_t n) {
    if (!norm_dim(&d0, a->rank, err, n) || !norm_dim(&d1, a->rank, err, n)) return NULL;
    int perm[TARR_MAX_RANK];
    for (int i = 0; i < TARR_MAX_RANK; i++) perm[i] = i;
    if (a->rank == 0) return tarr_cast(a, a->dtype);
    perm[d0] = d1, perm[d1] = d0;
    return permute(a, perm);
}

TArr *tarr_reduce(TRedOp op, const TArr *a, bool all, int dim, bool keepdim, char *err, size_t n) {
    if (all) {
        TArr *flat = tarr_new(a->dtype, 1, &a->n);
        memcpy(flat->d, a->d, sizeof(double) * (size_t)a->n);
        TArr *r = tarr_reduce(op, flat, false, 0, false, err, n);
        tarr_unref(flat);
        return r;
    }
    if (!norm_dim(&dim, a->rank, err, n)) return NULL;
    if (a->rank == 0) return tarr_cast(a, a->dtype);
    int64_t outer = 1, inner = 1, len = a->dims[dim];
    for (int i = 0; i < dim; i++) outer *= a->dims[i];
    for (int i = dim + 1; i < a->rank; i++) inner *= a->dims[i];
    if (len == 0 && (op == TR_MAX || op == TR_MIN)) { snprintf(err, n, "max / min of an empty dim"); return NULL; }
    int64_t dims[TARR_MAX_RANK];
    int rk = 0;
    for (int i = 0; i < a->rank; i++)
        if (i != dim) dims[rk++] = a->dims[i];
        else if (keepdim) dims[rk++] = 1;
    DType dt = a->dtype;
    if (op == TR_MEAN && !dtype_is_float(dt)) { snprintf(err, n, "mean of an integer tensor"); return NULL; }
    if (op == TR_SUM && (dtype_is_int(dt) || dt == DT_BOOL)) dt = DT_INT64;
    TArr *r = tarr_new(dt, rk, dims);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t q = 0; q < inner; q++) {
            const double *p = a->d + o * len * inner + q;
            double acc = op == TR_MAX ? -INFINITY : op == TR_MIN ? INFINITY : 0.0;
            for (int64_t k = 0; k < len; k++) {
                double x = p[k * inner];
                if (op == TR_SUM || op == TR_MEAN) acc += x;
                else if (isnan(x) || isnan(acc)) acc = NAN;
                else acc = op == TR_MAX ? fmax(acc, x) : fmin(acc, x);
            }
            r->d[o * inner + q] = op == TR_MEAN ? acc / (double)len : acc;
        }
    return r;
}

TArr *tarr_softmax(const TArr *a, int dim, char *err, size_t n) {
    TArr *m = tarr_reduce(TR_MAX, a, false, dim, true, err, n);
    if (!m) return NULL;
    TArr *x = tarr_binary(TB_SUB, a, m, err, n);
    tarr_unref(m);
    TArr *e = tarr_unary(TU_EXP, x);
    tarr_unref(x);
    TArr *s = tarr_reduce(TR_SUM, e, false, dim, true, err, n);
    TArr *r = s ? tarr_binary(TB_DIV, e, s, err, n) : NULL;
    tarr_unref(e), tarr_unref(s);
    if (r && !dtype_is_float(a->dtype)) r->dtype = DT_FP32;
    else if (r) r->dtype = a->dtype;
    return r;
}

TArr *tarr_cat(TArr *const *xs, int nx, int dim, char *err, size_t n) {
    if (nx == 0) { snprintf(err, n, "torch.cat of an empty list"); return NULL; }
    const TArr *f = xs[0];
    if (!norm_dim(&dim, f->rank, err, n)) return NULL;
    int64_t dims[TARR_MAX_RANK];
    memcpy(dims, f->dims, sizeof dims);
    dims[dim] = 0;
    DType dt = f->dtype;
    for (int i = 0; i < nx; i++) {
        if (xs[i]->rank != f->rank) { snprintf(err, n, "torch.cat of tensors of different ranks"); return NULL; }
        for (int k = 0; k < f->rank; k++)
            if (k != dim && xs[i]->dims[k] != f->dims[k]) { snprintf(err, n, "torch.cat: sizes differ in dim %d", k); return NULL; }
        dims[dim] += xs[i]->dims[dim];
        dt = promote(dt, xs[i]->dtype);
    }
    TArr *r = tarr_new(dt, f->rank, dims);
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < dim; i++) outer *= dims[i];
    for (int i = dim + 1; i < f->rank; i++) inner *= dims[i];
    double *out = r->d;
    for (int64_t o = 0; o < outer; o++)
        for (int i = 0; i < nx; i++) {
            int64_t chunk = xs[i]->dims[dim] * inner;
            memcpy(out, xs[i]->d + o * chunk, sizeof(double) * (size_t)chunk);
            out += chunk;
        }
    return r;
}

TArr *tarr_cast(const TArr *a, DType dt) {
    TArr *r = tarr_new(dt, a->rank, a->dims);
    for (int64_t i = 0; i < a->n; i++) {
        double x = a->d[i];
        if (dt == DT_FP32 || dt == DT_FP16 || dt == DT_BF16) r->d[i] = dtype_round_float(dt, x);
        else if (dt == DT_BOOL) r->d[i] = x != 0;
        else r->d[i] = dtype_convert(dt, dtype_is_float(a->dtype) ? DT_FP32 : DT_INT64, x, DT_ROUND_NONE);
    }
    return r;
}

TArr *tarr_reshape(const TArr *a, int rank, const int64_t *dims, char *err, size_t n) {
    int64_t d[TARR_MAX_RANK], known = 1;
    int infer = -1;
    for (int i = 0; i < rank; i++) {
        d[i] = dims[i];
        if (d[i] == -1 && infer < 0) infer = i;
        else if (d[i] < 0) { snprintf(err, n, "reshape: bad size %lld", (long long)d[i]); return NULL; }
        else known *= d[i];
    }
    if (infer >= 0) d[infer] = known ? a->n / known : 0, known *= d[infer];
    if (known != a->n) { snprintf(err, n, "reshape: %lld elements cannot take the new shape", (long long)a->n); return NULL; }
    TArr *r = tarr_new(a->dtype, rank, d);
    memcpy(r->d, a->d, sizeof(double) * (size_t)a->n);
    return r;
}

TArr *tarr_unsqueeze(const TArr *a, int dim, char *err, size_t n) {
    if (a->rank >= TARR_MAX_RANK) { snprintf(err, n, "unsqueeze beyond rank %d", TARR_MAX_RANK); return NULL; }
    if (dim < -(a->rank + 1) || dim > a->rank) { snprintf(err, n, "unsqueeze dim %d out of range", dim); return NULL; }
    if (dim < 0) dim += a->rank + 1;
    int64_t d[TARR_MAX_RANK];
    for (int i = 0, k = 0; i <= a->rank; i++) d[i] = i == dim ? 1 : a->dims[k++];
    return tarr_reshape(a, a->rank + 1, d, err, n);
}

TArr *tarr_slice(const TArr *a, const TSlice *s, int ns, char *err, size_t n) {
    if (ns > a->rank) { snprintf(err, n, "too many indices (%d) for a rank-%d tensor", ns, a->rank); return NULL; }
    int64_t lo[TARR_MAX_RANK], step[TARR_MAX_RANK], cnt[TARR_MAX_RANK], dims[TARR_MAX_RANK];
    int rk = 0;
    for (int i = 0; i < a->rank; i++) {
        int64_t D = a->dims[i];
        TSlice q = i < ns ? s[i] : (TSlice){ false, false, false, 0, 0, 1 };
        if (q.index) {
            int64_t k = q.start < 0 ? q.start + D : q.start;
            if (k < 0 || k >= D) { snprintf(err, n, "index %lld out of range for dim %d of size %lld", (long long)q.start, i, (long long)D); return NULL; }
            lo[i] = k, step[i] = 1, cnt[i] = 1;
            continue;
        }
        int64_t b = q.has_start ? (q.start < 0 ? q.start + D : q.start) : 0;
        int64_t e = q.has_stop ? (q.stop < 0 ? q.stop + D : q.stop) : D;
        b = b < 0 ? 0 : b > D ? D : b;
        e = e < 0 ? 0 : e > D ? D : e;
        lo[i] = b, step[i] = q.step, cnt[i] = e > b ? (e - b + q.step - 1) / q.step : 0;
        dims[rk++] = cnt[i];
    }
    TArr *r = tarr_new(a->dtype, rk, dims);
    int64_t st[TARR_MAX_RANK], idx[TARR_MAX_RANK] = { 0 }, s1 = 1;
    for (int i = a->rank - 1; i >= 0; i--) st[i] = s1, s1 *= a->dims[i];
    int64_t base = 0;
    for (int i = 0; i < a->rank; i++) base += lo[i] * st[i];
    int64_t off = base;
    for (int64_t e = 0; e < r->n; e++) {
        r->d[e] = a->d[off];
        for (int i = a->rank - 1; i >= 0; i--) {
            off += step[i] * st[i];
            if (++idx[i] < cnt[i]) break;
            off -= step[i] * st[i] * cnt[i], idx[i] = 0;
        }
    }
    return r;
}

/* ---- the generator: splitmix64 (as the driver's random inputs), Box-Muller for normals ---- */
uint64_t teval_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double teval_uniform(uint64_t *state) { return (double)(teval_next(state) >> 11) * 0x1p-53; }

double teval_normal(uint64_t *state) {
    double u1 = teval_uniform(state), u2 = teval_uniform(state);
    return sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586476925 * u2);      /* 1 - u1 in (0, 1] */
}
