/* interp_vec — the interpreter's semantics of the vector ops (OPF_VEC rows of ops.def,
 * spec/ops.md): elementwise binary ops (with the [M, 1] / [1, N] broadcasts), tile-scalar ops,
 * unary ops, cast and the row/col expand family; fills and reductions are in interp_vec_reduce.c.
 * Tile and tensor forms share one implementation: at the logical level they mean the same.
 *
 * Requires: interp_vec.h; call->type, when set, gives the result dtype (and its static dims are
 * checked against the computed shape). Produces: interp_vec_op, the shared helpers of interp_vec.h.
 * Does: every op computes only the result's valid region (the first operand's valid box, see
 * result_valid) and returns a fresh array whose other elements are 0. Per element, in the result
 * dtype: floats take the exact double result and round once (interp_round; exact double then one
 * rounding is the correctly rounded FP32/FP16/BF16 result for + - * / and the single rounding the
 * reference applies to transcendentals); integers wrap two's-complement in their width, computed on
 * 64-bit bits so that INT32 products stay exact; integer division truncates, and an integer divisor
 * of 0 is a run-time error naming the op (float x / 0 is IEEE). Operands of another dtype are
 * converted to the result dtype first (the cast is normally explicit in the IR; this is robustness). */
#include "interp/interp_vec.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- arguments and results */
const char *vec_name(const VecArgs *a) { return ir_op_info(a->call->call.op)->name; }

bool vec_arg_array(VecArgs *a, int i, const char *what, InterpArray **out) {
    if (i >= a->n || a->v[i].kind != IV_ARRAY)
        return interp_fail(a->c, a->call->span, "%s: %s must be a tensor or tile", vec_name(a), what);
    *out = a->v[i].arr;
    return true;
}

/* dtype_convert, with an integer zero kept as +0 (trunc(-0.5) is -0.0, which is not an integer
 * element value: it would print as -0 and compare by sign in bit-exact checks). */
static double convert(DType to, DType from, double v, int mode) {
    double r = dtype_convert(to, from, v, mode);
    return dtype_is_float(to) ? r : r + 0.0;
}

static bool is_scalar(InterpValue v) { return v.kind == IV_INT || v.kind == IV_BOOL || v.kind == IV_FLOAT; }

bool vec_arg_scalar(VecArgs *a, int i, DType to, double *out) {
    InterpValue v = i < a->n ? a->v[i] : (InterpValue){ 0 };
    if (!is_scalar(v)) return interp_fail(a->c, a->call->span, "%s: argument %d must be a scalar", vec_name(a), i + 1);
    if (v.kind == IV_FLOAT) *out = convert(to, DT_FP32, v.f, dtype_is_float(to) ? DT_ROUND_RINT : DT_ROUND_TRUNC);
    else if (dtype_is_float(to)) *out = convert(to, DT_INT64, (double)v.i, DT_ROUND_RINT);
    else *out = vec_wrap(to, (uint64_t)v.i);   /* exact even beyond 2^53 */
    return true;
}

bool vec_arg_dtype(const VecArgs *a, int i, DType *out) {
    const Expr *e = i < a->call->call.nargs ? a->call->call.args[i] : NULL;
    if (!e || e->kind != EX_ENUM || e->enm.kind != AV_DTYPE) return false;
    *out = e->enm.dtype;
    return true;
}

DType vec_result_dtype(const VecArgs *a, DType fallback) {
    const Type *t = a->call->type;
    if (t && (t->kind == TY_TENSOR || t->kind == TY_TILE) && interp_dtype_supported(t->dtype)) return t->dtype;
    return fallback;
}

static void shape_text(const int64_t *shape, int rank, StrBuf *sb) {
    sb_puts(sb, "[");
    for (int d = 0; d < rank; d++) sb_printf(sb, "%s%lld", d ? ", " : "", (long long)shape[d]);
    sb_puts(sb, "]");
}

bool vec_new_result(VecArgs *a, DType dt, int rank, const int64_t *shape, InterpArray **out) {
    int64_t numel = 1, dims[INTERP_MAX_RANK];
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 0) return interp_fail(a->c, a->call->span, "%s: negative dim %lld", vec_name(a), (long long)shape[d]);
        if (shape[d] && numel > INTERP_MAX_NUMEL / shape[d])
            return interp_fail(a->c, a->call->span, "%s: the result has more than %lld elements", vec_name(a),
                               (long long)INTERP_MAX_NUMEL);
        numel *= shape[d];
    }
    const Type *t = a->call->type;
    if (t && (t->kind == TY_TENSOR || t->kind == TY_TILE) && t->rank <= INTERP_MAX_RANK && ir_type_static_dims(t, dims)) {
        bool same = t->rank == rank;
        for (int d = 0; same && d < rank; d++) same = dims[d] == shape[d];
        if (!same) {
            StrBuf got = { 0 }, want = { 0 };
            shape_text(shape, rank, &got);
            ir_print_type(t, &want);
            interp_fail(a->c, a->call->span, "%s: the interpreter computes a %s result but the call's type is %s",
                        vec_name(a), sb_cstr(&got), sb_cstr(&want));
            sb_free(&got);
            sb_free(&want);
            return false;
        }
    }
    *out = interp_array_new(dt, rank, shape);
    return true;
}

/* ---------------------------------------------------------------- 2-D view */
int64_t vec_cols(const InterpArray *x) { return x->rank ? x->shape[x->rank - 1] : 1; }
int64_t vec_valid_cols(const InterpArray *x) { return x->rank ? x->valid[x->rank - 1] : 1; }

int64_t vec_rows(const InterpArray *x) {
    int64_t r = 1;
    for (int d = 0; d + 1 < x->rank; d++) r *= x->shape[d];
    return r;
}

bool vec_row_valid(const InterpArray *x, int64_t r) {
    for (int d = x->rank - 2; d >= 0; d--) {
        if (r % x->shape[d] >= x->valid[d]) return false;
        r /= x->shape[d];
    }
    return true;
}

/* ---------------------------------------------------------------- element arithmetic */
double vec_convert(DType to, DType from, double v) {
    if (to == from) return v;
    return convert(to, from, v, dtype_is_float(to) ? DT_ROUND_RINT : DT_ROUND_TRUNC);
}

uint64_t vec_bits(double v) {
    if (v != v) return 0;
    if (v >= 9223372036854775808.0) return v >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)v;   /* UINT64 */
    if (v < -9223372036854775808.0) return (uint64_t)INT64_MIN;
    return (uint64_t)(int64_t)v;
}

double vec_wrap(DType dt, uint64_t u) {
    if (dt == DT_BOOL) return u != 0;
    int bits = dtype_bits(dt);
    if (bits < 64) {
        uint64_t m = (UINT64_C(1) << bits) - 1;
        u &= m;
        if (dtype_is_signed(dt) && (u >> (bits - 1))) u |= ~m;
    }
    return dtype_is_signed(dt) ? (double)(int64_t)u : (double)u;
}

typedef enum { VB_ADD, VB_SUB, VB_MUL, VB_DIV, VB_MAX, VB_MIN, VB_RHS } VecBin;
typedef enum { VU_EXP, VU_LOG, VU_SQRT, VU_RSQRT, VU_RECIP, VU_ABS, VU_NEG, VU_RELU } VecUn;

/* x op y for two values of dtype dt; false for an integer division by zero. */
static bool elem_binary(VecBin op, DType dt, double x, double y, double *out) {
    switch (op) {
    case VB_MAX: *out = vec_max(x, y); return true;
    case VB_MIN: *out = vec_min(x, y); return true;
    case VB_RHS: *out = y; return true;
    default: break;
    }
    if (dtype_is_float(dt)) {
        *out = interp_round(dt, op == VB_ADD ? x + y : op == VB_SUB ? x - y : op == VB_MUL ? x * y : x / y);
        return true;
    }
    uint64_t a = vec_bits(x), b = vec_bits(y), r;
    switch (op) {
    case VB_ADD: r = a + b; break;
    case VB_SUB: r = a - b; break;
    case VB_MUL: r = a * b; break;
    default:
        if (b == 0) return false;
        if (!dtype_is_signed(dt)) r = a / b;               /* unsigned values are non-negative */
        else if ((int64_t)b == -1) r = 0 - a;              /* INT_MIN / -1 wraps (no C overflow) */
        else r = (uint64_t)((int64_t)a / (int64_t)b);      /* C division truncates toward zero */
    }
    *out = vec_wrap(dt, r);
    return true;
}

/* op(x) for a value of dtype dt; false for an integer reciprocal of 0. The transcendentals are
 * float-only (checked by the caller). */
static bool elem_unary(VecUn op, DType dt, double x, double *out) {
    if (dtype_is_float(dt)) {
        double r;
        switch (op) {
        case VU_EXP: r = exp(x); break;
        case VU_LOG: r = log(x); break;                    /* log(0) = -inf, log(<0) = NaN */
        case VU_SQRT: r = sqrt(x); break;
        case VU_RSQRT: r = 1.0 / sqrt(x); break;           /* rsqrt(0) = inf (decision 8) */
        case VU_RECIP: r = 1.0 / x; break;
        case VU_ABS: r = fabs(x); break;
        case VU_NEG: r = -x; break;
        default: r = vec_max(x, 0.0); break;               /* relu = std::max(x, 0) */
        }
        *out = interp_round(dt, r);
        return true;
    }
    uint64_t b = vec_bits(x);
    switch (op) {
    case VU_ABS: *out = vec_wrap(dt, x < 0 ? 0 - b : b); return true;   /* abs(INT_MIN) wraps */
    case VU_NEG: *out = vec_wrap(dt, 0 - b); return true;
    case VU_RECIP:
        if (b == 0) return false;
        *out = x == 1 ? 1 : x == -1 && dtype_is_signed(dt) ? -1 : 0;     /* 1 / x truncated */
        return true;
    default: *out = x < 0 ? 0 : x; return true;          /* relu */
    }
}

/* ---------------------------------------------------------------- operands */
/* An operand read at the result's 2-D index (r, c): element data[r·rs + c·cs]. */
typedef struct VecSrc { const InterpArray *x; int64_t rs, cs; } VecSrc;

static double src_at(const VecSrc *s, DType dt, int64_t r, int64_t c) {
    return vec_convert(dt, s->x->dtype, interp_get(s->x, r * s->rs + c * s->cs));
}

/* A scalar v (a value of dt) seen as a one-element array of dtype dt (storage *store, never
 * released). */
static void scalar_array(InterpArray *tmp, DType dt, double v, uint64_t *store) {
    memset(tmp, 0, sizeof *tmp);
    tmp->refs = 1;
    tmp->dtype = dt;
    tmp->numel = 1;
    tmp->data = store;
    interp_set(tmp, 0, v);
}

static bool bad_broadcast(VecArgs *a, const InterpArray *x, const InterpArray *y) {
    char b1[128], b2[128];
    return interp_fail(a->c, a->call->span, "%s: operands %s and %s do not broadcast (only equal shapes, an [M, 1] "
                       "column or a [1, N] row)", vec_name(a), interp_shape_str(x, b1, sizeof b1),
                       interp_shape_str(y, b2, sizeof b2));
}

/* How x (rank <= the result's; missing leading dims are 1) is read at the result's index: the
 * same shape, a column [.., R, 1] (one value per row), a row [1, .., C] (one value per column),
 * or a single element. Other broadcasts are errors (spec/ops.md decision 1). */
static bool src_of(VecArgs *a, const InterpArray *x, const InterpArray *y, const InterpArray *res, VecSrc *s) {
    int n = res->rank, k = n - x->rank;
    bool same = true, lead_same = true, lead_one = true;
    for (int d = 0; d < n; d++) {
        int64_t xd = d < k ? 1 : x->shape[d - k];
        same &= xd == res->shape[d];
        if (d + 1 < n) { lead_same &= xd == res->shape[d]; lead_one &= xd == 1; }
    }
    int64_t xlast = k > 0 || !n ? 1 : x->shape[x->rank - 1];
    *s = (VecSrc){ .x = x };
    if (same) { s->rs = vec_cols(res); s->cs = 1; }
    else if (x->numel == 1) { s->rs = 0; s->cs = 0; }
    else if (lead_same && xlast == 1) { s->rs = 1; s->cs = 0; }
    else if (lead_one && xlast == vec_cols(res)) { s->rs = 0; s->cs = 1; }
    else return bad_broadcast(a, x, y);
    return true;
}

/* The numpy broadcast shape of x and y (right-aligned; a dim of 1 stretches). The valid box per
 * dim comes from the lhs, unless the lhs is the stretched side there (a [M, 1] lhs: its rows,
 * the rhs's columns). */
static bool broadcast(VecArgs *a, const InterpArray *x, const InterpArray *y, int *rank, int64_t *shape, int64_t *valid) {
    int n = x->rank > y->rank ? x->rank : y->rank, kx = n - x->rank, ky = n - y->rank;
    for (int d = 0; d < n; d++) {
        int64_t xd = d < kx ? 1 : x->shape[d - kx], yd = d < ky ? 1 : y->shape[d - ky];
        int64_t xv = d < kx ? 1 : x->valid[d - kx], yv = d < ky ? 1 : y->valid[d - ky];
        if (xd != yd && xd != 1 && yd != 1) return bad_broadcast(a, x, y);
        bool from_x = xd == yd || yd == 1;
        shape[d] = from_x ? xd : yd;
        valid[d] = from_x ? xv : yv;
    }
    *rank = n;
    return true;
}

/* ---------------------------------------------------------------- the element loop */
typedef struct VecElem {
    enum { VE_BINARY, VE_UNARY, VE_CAST } kind;
    int op;                       /* VecBin, VecUn, or the cast's rounding mode */
    VecSrc x, y;                  /* y: binary only */
} VecElem;

static bool elem_at(const VecElem *e, DType dt, int64_t r, int64_t c, double *out) {
    switch (e->kind) {
    case VE_BINARY: return elem_binary((VecBin)e->op, dt, src_at(&e->x, dt, r, c), src_at(&e->y, dt, r, c), out);
    case VE_UNARY: return elem_unary((VecUn)e->op, dt, src_at(&e->x, dt, r, c), out);
    default:
        *out = convert(dt, e->x.x->dtype, interp_get(e->x.x, r * e->x.rs + c * e->x.cs), e->op);
        return true;
    }
}

/* run_elems for FP32 operands and result, read and written as floats: the same values as the generic
 * loop (an FP32 operand is (double)f, elem_binary / elem_unary compute in double and round to FP32,
 * the store rounds again — a no-op), without a dtype switch per access; add, sub, mul and div inline
 * (one rounding of the double result). False when it does not apply. */
static bool run_elems_f32(InterpArray *res, const VecElem *e) {
    bool binary = e->kind == VE_BINARY;
    if (e->kind == VE_CAST || res->dtype != DT_FP32 || e->x.x->dtype != DT_FP32 || (binary && e->y.x->dtype != DT_FP32))
        return false;
    int64_t R = vec_rows(res), C = vec_cols(res), vc = vec_valid_cols(res);
    float *o = res->data;
    const float *x = e->x.x->data, *y = binary ? e->y.x->data : NULL;
    int64_t xr = e->x.rs, xc = e->x.cs, yr = binary ? e->y.rs : 0, yc = binary ? e->y.cs : 0;
    for (int64_t r = 0; r < R; r++) {
        if (!vec_row_valid(res, r)) continue;
        float *orow = o + r * C;
        const float *xrow = x + r * xr, *yrow = binary ? y + r * yr : NULL;
        switch (binary ? e->op : -1) {
        case VB_ADD: for (int64_t c = 0; c < vc; c++) orow[c] = (float)((double)xrow[c * xc] + (double)yrow[c * yc]); break;
        case VB_SUB: for (int64_t c = 0; c < vc; c++) orow[c] = (float)((double)xrow[c * xc] - (double)yrow[c * yc]); break;
        case VB_MUL: for (int64_t c = 0; c < vc; c++) orow[c] = (float)((double)xrow[c * xc] * (double)yrow[c * yc]); break;
        case VB_DIV: for (int64_t c = 0; c < vc; c++) orow[c] = (float)((double)xrow[c * xc] / (double)yrow[c * yc]); break;
        default:
            for (int64_t c = 0; c < vc; c++) {
                double v = 0;
                if (binary) elem_binary((VecBin)e->op, DT_FP32, xrow[c * xc], yrow[c * yc], &v);
                else elem_unary((VecUn)e->op, DT_FP32, xrow[c * xc], &v);   /* floats never fail */
                orow[c] = (float)v;
            }
        }
    }
    return true;
}

/* Writes every element of res's valid region; the result is handed to out (or released). */
static bool run_elems(VecArgs *a, InterpArray *res, const VecElem *e, InterpValue *out) {
    if (run_elems_f32(res, e)) {
        *out = interp_arr_value(res);
        return true;
    }
    int64_t R = vec_rows(res), C = vec_cols(res), vc = vec_valid_cols(res);
    for (int64_t r = 0; r < R; r++) {
        if (!vec_row_valid(res, r)) continue;
        for (int64_t c = 0; c < vc; c++) {
            double v;
            if (elem_at(e, res->dtype, r, c, &v)) { interp_set(res, r * C + c, v); continue; }
            interp_array_release(res);
            return interp_fail(a->c, a->call->span, "%s: integer division by zero (row %lld, column %lld)",
                               vec_name(a), (long long)r, (long long)c);
        }
    }
    *out = interp_arr_value(res);
    return true;
}

/* A result with x's shape and valid box. */
static bool result_like(VecArgs *a, const InterpArray *x, DType dt, InterpArray **res) {
    if (!vec_new_result(a, dt, x->rank, x->shape, res)) return false;
    memcpy((*res)->valid, x->valid, sizeof x->valid);
    return true;
}

/* ---------------------------------------------------------------- op families */
/* §2.2 promotion, for a call without a type (FP16 with BF16: FP32, decision 3). */
static DType promote(DType a, DType b) {
    if (a == b) return a;
    bool fa = dtype_is_float(a), fb = dtype_is_float(b);
    if (fa != fb) return fa ? a : b;
    if (dtype_bits(a) != dtype_bits(b)) return dtype_bits(a) > dtype_bits(b) ? a : b;
    if (fa) return DT_FP32;
    return dtype_is_signed(a) ? a : b;
}

/* A tile (tensor) with a scalar on either side: the scalar is converted to the result dtype (the
 * tile's, unless the tensor level promoted it), then the binary rule. */
static bool binary_scalar(VecArgs *a, VecBin op, int ti, InterpValue *out) {
    InterpArray *t = a->v[ti].arr, sarr, *res;
    DType dt = vec_result_dtype(a, t->dtype);
    double s;
    uint64_t store;
    if (!vec_arg_scalar(a, 1 - ti, dt, &s) || !result_like(a, t, dt, &res)) return false;
    scalar_array(&sarr, dt, s, &store);
    VecSrc ts = { t, vec_cols(t), 1 }, ss = { &sarr, 0, 0 };
    VecElem e = { VE_BINARY, op, ti == 0 ? ts : ss, ti == 0 ? ss : ts };
    return run_elems(a, res, &e, out);
}

/* add sub mul div maximum minimum (scalar_rhs: the *s forms, whose rhs must be a scalar). */
static bool op_binary(VecArgs *a, VecBin op, bool scalar_rhs, InterpValue *out) {
    bool xs = is_scalar(a->v[0]), ys = is_scalar(a->v[1]);
    bool xa = a->v[0].kind == IV_ARRAY, ya = a->v[1].kind == IV_ARRAY;
    if (scalar_rhs ? !(xa && ys) : !((xa || xs) && (ya || ys) && (xa || ya)))
        return interp_fail(a->c, a->call->span, scalar_rhs ? "%s: expects a tensor or tile and a scalar"
                           : "%s: expects two tensors or tiles, or one and a scalar", vec_name(a));
    if (xs || ys) return binary_scalar(a, op, xs ? 1 : 0, out);
    InterpArray *x = a->v[0].arr, *y = a->v[1].arr, *res;
    int64_t shape[INTERP_MAX_RANK], valid[INTERP_MAX_RANK];
    int rank = 0;
    if (!broadcast(a, x, y, &rank, shape, valid) || !vec_new_result(a, vec_result_dtype(a, promote(x->dtype, y->dtype)),
                                                                      rank, shape, &res))
        return false;
    memcpy(res->valid, valid, sizeof(int64_t) * (size_t)rank);
    VecElem e = { .kind = VE_BINARY, .op = op };
    if (!src_of(a, x, y, res, &e.x) || !src_of(a, y, x, res, &e.y)) { interp_array_release(res); return false; }
    return run_elems(a, res, &e, out);
}

static bool op_unary(VecArgs *a, VecUn op, InterpValue *out) {
    InterpArray *x, *res;
    if (!vec_arg_array(a, 0, "the operand", &x)) return false;
    DType dt = vec_result_dtype(a, x->dtype);
    if (op <= VU_RSQRT && !dtype_is_float(dt))
        return interp_fail(a->c, a->call->span, "%s: needs a float element type, not %s", vec_name(a), dtype_name(dt));
    if (!result_like(a, x, dt, &res)) return false;
    VecElem e = { .kind = VE_UNARY, .op = op, .x = { x, vec_cols(x), 1 } };
    return run_elems(a, res, &e, out);
}

/* kwarg mode: a name ("round", also qualified "pl.RoundMode.round") or its number 0..6. */
static bool cast_mode(VecArgs *a, int *mode) {
    const AttrVal *v = ir_attr_get(&a->call->call.kwargs, "mode");
    *mode = DT_ROUND_ROUND;   /* the DSL default */
    if (!v) return true;
    if (v->kind == AV_INT && dtype_round_name((int)v->i)) { *mode = (int)v->i; return true; }
    const char *s = (v->kind == AV_STR || v->kind == AV_ENUM) && v->s ? v->s : NULL;
    if (s && strrchr(s, '.')) s = strrchr(s, '.') + 1;
    for (int m = 0; s && dtype_round_name(m); m++)
        if (strcmp(s, dtype_round_name(m)) == 0) { *mode = m; return true; }
    return interp_fail(a->c, a->call->span, "%s: unknown rounding mode (none, rint, round, floor, ceil, trunc, odd "
                       "or 0..6)", vec_name(a));
}

/* cast(x, dtype, mode=...): dtype_convert honours the mode for every conversion (decision 6). */
static bool op_cast(VecArgs *a, InterpValue *out) {
    InterpArray *x, *res;
    DType to = DT_NONE;
    int mode;
    if (!vec_arg_array(a, 0, "the operand", &x) || !cast_mode(a, &mode)) return false;
    if (!vec_arg_dtype(a, 1, &to)) to = DT_NONE;
    to = vec_result_dtype(a, to);
    if (to == DT_NONE || !interp_dtype_supported(to))
        return interp_fail(a->c, a->call->span, "%s: the target dtype must be a supported dtype such as pl.FP16", vec_name(a));
    if (!result_like(a, x, to, &res)) return false;
    VecElem e = { .kind = VE_CAST, .op = mode, .x = { x, vec_cols(x), 1 } };
    return run_elems(a, res, &e, out);
}

/* row_expand_* (t, v): v holds one value per row of t (v[r, 0]: an [R, 1] column, or the
 * row-major form with one 32-byte block per row); col_expand_* (t, v): v is [1, C]. The result has
 * t's shape and valid box; op VB_RHS is row_expand / col_expand themselves (t gives the shape). */
static bool op_expand(VecArgs *a, VecBin op, bool rows, InterpValue *out) {
    InterpArray *t, *v, *res;
    if (!vec_arg_array(a, 0, "the tile", &t) || !vec_arg_array(a, 1, rows ? "the row vector" : "the column vector", &v))
        return false;
    bool fits = rows ? vec_rows(v) == vec_rows(t) && vec_cols(v) >= 1 : v->numel == vec_cols(t);
    if (!fits) {
        char b1[128], b2[128];
        return interp_fail(a->c, a->call->span, "%s: %s %s does not match %s (expected [%lld, 1])", vec_name(a),
                           rows ? "the row vector" : "the column vector", interp_shape_str(v, b1, sizeof b1),
                           interp_shape_str(t, b2, sizeof b2), (long long)(rows ? vec_rows(t) : 1));
    }
    DType dt = vec_result_dtype(a, op == VB_RHS ? v->dtype : promote(t->dtype, v->dtype));
    if (!result_like(a, t, dt, &res)) return false;
    VecElem e = { .kind = VE_BINARY, .op = op, .x = { t, vec_cols(t), 1 } };
    e.y = rows ? (VecSrc){ v, vec_cols(v), 0 } : (VecSrc){ v, 0, 1 };
    return run_elems(a, res, &e, out);
}

/* ---------------------------------------------------------------- dispatch */
#define BOTH(x) case OP_TILE_##x: case OP_TENSOR_##x

/* reshape(x, shape): the row-major elements of x in the new 2-D shape (the deduced type's). */
static bool op_reshape(VecArgs *a, InterpValue *out) {
    InterpArray *x;
    int64_t d[2];
    if (!vec_arg_array(a, 0, "the operand", &x)) return false;
    const Type *t = a->call->type;
    if (!t || t->rank != 2 || !ir_type_static_dims(t, d) || d[0] * d[1] != x->numel) {
        char b[128];
        return interp_fail(a->c, a->call->span, "%s: cannot reshape %s to the result type", vec_name(a), interp_shape_str(x, b, sizeof b));
    }
    InterpArray *res = interp_array_new(x->dtype, 2, d);
    if (!res) return interp_fail(a->c, a->call->span, "%s: out of memory", vec_name(a));
    memcpy(res->data, x->data, (size_t)interp_elem_bytes(x->dtype) * (size_t)x->numel);
    *out = interp_arr_value(res);
    return true;
}

static bool dispatch(VecArgs *a, InterpValue *out) {
    switch (a->call->call.op) {
    BOTH(ADD): return op_binary(a, VB_ADD, false, out);
    BOTH(SUB): return op_binary(a, VB_SUB, false, out);
    BOTH(MUL): return op_binary(a, VB_MUL, false, out);
    BOTH(DIV): return op_binary(a, VB_DIV, false, out);
    BOTH(MAXIMUM): return op_binary(a, VB_MAX, false, out);
    BOTH(MINIMUM): return op_binary(a, VB_MIN, false, out);
    BOTH(ADDS): return op_binary(a, VB_ADD, true, out);
    BOTH(SUBS): return op_binary(a, VB_SUB, true, out);
    BOTH(MULS): return op_binary(a, VB_MUL, true, out);
    BOTH(DIVS): return op_binary(a, VB_DIV, true, out);
    BOTH(MAXIMUMS): return op_binary(a, VB_MAX, true, out);
    BOTH(MINIMUMS): return op_binary(a, VB_MIN, true, out);
    BOTH(EXP): return op_unary(a, VU_EXP, out);
    BOTH(LOG): return op_unary(a, VU_LOG, out);
    BOTH(SQRT): return op_unary(a, VU_SQRT, out);
    BOTH(RSQRT): return op_unary(a, VU_RSQRT, out);       /* the tile form's tmp is scratch */
    BOTH(RECIP): return op_unary(a, VU_RECIP, out);
    BOTH(ABS): return op_unary(a, VU_ABS, out);
    BOTH(NEG): return op_unary(a, VU_NEG, out);
    BOTH(RELU): return op_unary(a, VU_RELU, out);
    BOTH(CAST): return op_cast(a, out);
    BOTH(RESHAPE): return op_reshape(a, out);
    BOTH(TRANSPOSE): case OP_TILE_TRANSPOSE_VIEW: BOTH(CONCAT): case OP_TILE_SLICE: return interp_vec_move(a, out);
    BOTH(ROW_ARGMAX): BOTH(ROW_ARGMIN): BOTH(COL_ARGMAX): BOTH(COL_ARGMIN): return interp_vec_arg(a, out);
    BOTH(SIN): BOTH(COS): return interp_vec_trig(a, out);
    BOTH(CMP): case OP_TILE_CMPS: case OP_TENSOR_CMPS: case OP_TILE_SEL: case OP_TENSOR_SEL: BOTH(SELS): return interp_vec_cmp(a, out);
    BOTH(ROW_EXPAND): return op_expand(a, VB_RHS, true, out);
    BOTH(ROW_EXPAND_ADD): return op_expand(a, VB_ADD, true, out);
    BOTH(ROW_EXPAND_SUB): return op_expand(a, VB_SUB, true, out);
    BOTH(ROW_EXPAND_MUL): return op_expand(a, VB_MUL, true, out);
    BOTH(ROW_EXPAND_DIV): return op_expand(a, VB_DIV, true, out);
    BOTH(ROW_EXPAND_MAX): return op_expand(a, VB_MAX, true, out);
    BOTH(ROW_EXPAND_MIN): return op_expand(a, VB_MIN, true, out);
    BOTH(COL_EXPAND): return op_expand(a, VB_RHS, false, out);
    BOTH(COL_EXPAND_ADD): return op_expand(a, VB_ADD, false, out);
    BOTH(COL_EXPAND_SUB): return op_expand(a, VB_SUB, false, out);
    BOTH(COL_EXPAND_MUL): return op_expand(a, VB_MUL, false, out);
    BOTH(COL_EXPAND_DIV): return op_expand(a, VB_DIV, false, out);
    BOTH(COL_EXPAND_MAX): return op_expand(a, VB_MAX, false, out);
    BOTH(COL_EXPAND_MIN): return op_expand(a, VB_MIN, false, out);
    BOTH(FMOD): BOTH(FMODS): BOTH(REM): BOTH(REMS): BOTH(AND): BOTH(OR): BOTH(XOR): BOTH(ANDS): BOTH(ORS): BOTH(XORS):
    BOTH(SHL): BOTH(SHR): BOTH(SHLS): BOTH(SHRS): BOTH(NOT): BOTH(LRELU): case OP_TILE_PRELU: BOTH(PART_ADD): BOTH(PART_MUL):
    BOTH(PART_MAX): BOTH(PART_MIN): BOTH(ROW_EXPAND_EXPDIF): BOTH(COL_EXPAND_EXPDIF): return interp_vec_bits(a, out);
    default: return interp_vec_fill_reduce(a, out);
    }
}

bool interp_vec_op(InterpCtx *c, InterpFrame *f, const Expr *call, InterpValue *out) {
    VecArgs a = { .c = c, .call = call, .n = call->call.nargs };
    *out = (InterpValue){ 0 };
    if (a.n > VEC_MAX_ARGS) return interp_fail(c, call->span, "%s: too many arguments", vec_name(&a));
    bool ok = true;
    for (int i = 0; i < a.n && ok; i++) ok = interp_eval(c, f, call->call.args[i], &a.v[i]);
    if (ok) ok = dispatch(&a, out);
    for (int i = 0; i < a.n; i++) interp_release(a.v[i]);
    return ok;
}
