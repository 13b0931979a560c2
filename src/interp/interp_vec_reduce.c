/* interp_vec_reduce — the interpreter's fills and reductions among the vector ops (spec/ops.md
 * §4.5, §4.6): full, expands, fillpad (and fillpad_inplace, fillpad_expand), row_sum / row_max /
 * row_min / row_prod, col_sum / col_max / col_min / col_prod.
 *
 * Requires: interp_vec.h (arguments, results, the 2-D view and element conversions of
 * interp_vec.c). Produces: interp_vec_fill_reduce.
 * Does: fills convert their scalar to the result dtype once (nearest even to a float, truncation
 * to an integer) and write the result's valid region; fillpad writes the whole array (its valid box
 * becomes the full shape). Reductions read exactly the valid cells, in order (left to right, top to
 * bottom): sums of float elements accumulate in an FP32 running sum — FP16/BF16 included, both for
 * rows and columns (decision 5) — and round once into the result dtype; integer sums wrap in the
 * source dtype; products likewise (an FP32 running product, decision 5 applied to products as ptoc
 * applies it to sums; integer products wrap); max/min start from the first cell and fold std::max/std::min over the rest (a NaN
 * in the first cell propagates, later NaNs are skipped). The tile forms' tmp operand is scratch on
 * the hardware and ignored here. */
#include "interp/interp_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- fills */
/* Argument i as a shape: a list of non-negative integers (or one integer). */
static bool arg_shape(VecArgs *a, int i, int64_t *shape, int *rank) {
    InterpValue v = a->v[i];
    if (v.kind == IV_INT) { shape[0] = v.i; *rank = 1; return true; }
    bool ok = v.kind == IV_TUPLE && v.tup->n <= INTERP_MAX_RANK;
    for (int k = 0; ok && k < v.tup->n; k++) {
        ok = v.tup->items[k].kind == IV_INT;
        shape[k] = v.tup->items[k].i;
    }
    if (ok) *rank = v.tup->n;
    return ok || interp_fail(a->c, a->call->span, "%s: the shape must be a list of integers", vec_name(a));
}

/* Every element of res's valid region := v. */
static void fill_valid(InterpArray *res, double v) {
    int64_t R = vec_rows(res), C = vec_cols(res), vc = vec_valid_cols(res);
    for (int64_t r = 0; r < R; r++)
        if (vec_row_valid(res, r))
            for (int64_t c = 0; c < vc; c++) interp_set(res, r * C + c, v);
}

/* full(shape, dtype, value): the dtype is the call's type, else the written one. */
static bool op_full(VecArgs *a, InterpValue *out) {
    int64_t shape[INTERP_MAX_RANK];
    int rank = 0;
    DType dt = DT_NONE;
    if (!arg_shape(a, 0, shape, &rank)) return false;
    if (!vec_arg_dtype(a, 1, &dt)) dt = DT_NONE;
    dt = vec_result_dtype(a, dt);
    if (dt == DT_NONE || !interp_dtype_supported(dt))
        return interp_fail(a->c, a->call->span, "%s: the dtype must be a supported dtype such as pl.FP32", vec_name(a));
    double v;
    InterpArray *res;
    if (!vec_arg_scalar(a, 2, dt, &v) || !vec_new_result(a, dt, rank, shape, &res)) return false;
    fill_valid(res, v);
    *out = interp_arr_value(res);
    return true;
}

/* expands(target, s): target's shape and valid box, the (promoted) dtype of the call. */
static bool op_expands(VecArgs *a, InterpValue *out) {
    InterpArray *t, *res;
    if (!vec_arg_array(a, 0, "the target", &t)) return false;
    DType dt = vec_result_dtype(a, t->dtype);
    double v;
    if (!vec_arg_scalar(a, 1, dt, &v) || !vec_new_result(a, dt, t->rank, t->shape, &res)) return false;
    memcpy(res->valid, t->valid, sizeof t->valid);
    fill_valid(res, v);
    *out = interp_arr_value(res);
    return true;
}

/* kwarg pad_value: pl.PadValue.zero (default) / max / min, a bare name, or the enum's number
 * (zero 1, max 2, min 3); null is rejected. */
static bool pad_kind(VecArgs *a, PadValue *p) {
    const AttrVal *v = ir_attr_get(&a->call->call.kwargs, "pad_value");
    *p = PAD_ZERO;
    if (!v) return true;
    if (v->kind == AV_INT && v->i >= PAD_ZERO && v->i <= PAD_MIN) { *p = (PadValue)v->i; return true; }
    const char *s = (v->kind == AV_STR || v->kind == AV_ENUM) && v->s ? v->s : NULL;
    if (s && strrchr(s, '.')) s = strrchr(s, '.') + 1;
    for (int k = PAD_ZERO; s && k <= PAD_MIN; k++)
        if (strcmp(s, ir_pad_name((PadValue)k)) == 0) { *p = (PadValue)k; return true; }
    return interp_fail(a->c, a->call->span, "%s: pad_value must be pl.PadValue.zero, max or min", vec_name(a));
}

/* zero: 0; max: +inf for floats, the largest integer; min: -inf, the smallest (0 unsigned). */
static double pad_of(DType dt, PadValue p) {
    if (p == PAD_ZERO) return 0;
    if (dtype_is_float(dt)) return p == PAD_MAX ? INFINITY : -INFINITY;
    if (dt == DT_BOOL) return p == PAD_MAX;
    int bits = dtype_bits(dt);
    if (dtype_is_signed(dt)) return p == PAD_MAX ? ldexp(1, bits - 1) - 1 : -ldexp(1, bits - 1);
    return p == PAD_MAX ? ldexp(1, bits) - 1 : 0;
}

/* fillpad(x): same shape, valid := the full shape; cells outside x's valid box become the pad. */
static bool op_fillpad(VecArgs *a, InterpValue *out) {
    InterpArray *x, *res;
    PadValue pk;
    if (!vec_arg_array(a, 0, "the operand", &x) || !pad_kind(a, &pk)) return false;
    DType dt = vec_result_dtype(a, x->dtype);
    if (!vec_new_result(a, dt, x->rank, x->shape, &res)) return false;
    double pad = pad_of(dt, pk);
    int64_t R = vec_rows(x), C = vec_cols(x), vc = vec_valid_cols(x);
    for (int64_t r = 0; r < R; r++) {
        bool row = vec_row_valid(x, r);
        for (int64_t c = 0; c < C; c++)
            interp_set(res, r * C + c, row && c < vc ? vec_convert(dt, x->dtype, interp_get(x, r * C + c)) : pad);
    }
    *out = interp_arr_value(res);
    return true;
}

/* fillpad_expand(x, shape): a [shape] result holding x's valid region top-left, the pad value
 * elsewhere (wholly valid). */
static bool op_fillpad_expand(VecArgs *a, InterpValue *out) {
    InterpArray *x, *res;
    PadValue pk;
    int64_t shape[INTERP_MAX_RANK];
    int rank = 0;
    if (!vec_arg_array(a, 0, "the operand", &x) || !arg_shape(a, 1, shape, &rank) || !pad_kind(a, &pk)) return false;
    if (x->rank != 2 || rank != 2 || shape[0] < x->shape[0] || shape[1] < x->shape[1])
        return interp_fail(a->c, a->call->span, "%s: the shape must be 2-D and cover the operand", vec_name(a));
    DType dt = vec_result_dtype(a, x->dtype);
    if (!vec_new_result(a, dt, 2, shape, &res)) return false;
    double pad = pad_of(dt, pk);
    for (int64_t r = 0; r < shape[0]; r++)
        for (int64_t c = 0; c < shape[1]; c++)
            interp_set(res, r * shape[1] + c,
                       r < x->valid[0] && c < x->valid[1] ? vec_convert(dt, x->dtype, interp_get(x, r * x->shape[1] + c)) : pad);
    *out = interp_arr_value(res);
    return true;
}

/* ---------------------------------------------------------------- reductions */
typedef enum { VR_SUM, VR_MAX, VR_MIN, VR_PROD } VecRed;

/* n >= 1 cells of one row or column: x[base + idx(j) · stride] with idx(j) = rows[j], or j without a list. */
typedef struct Line { const InterpArray *x; int64_t base, stride; const int64_t *rows; int64_t n; } Line;

static double line_at(const Line *l, int64_t j) { return interp_get(l->x, l->base + (l->rows ? l->rows[j] : j) * l->stride); }

/* The reduction of one line of source dtype src, as a value of dt. */
static double reduce_line(VecRed op, DType src, DType dt, const Line *l) {
    if (op == VR_PROD) {
        if (dtype_is_float(src)) {
            float acc = (float)line_at(l, 0);   /* FP32 running product: every multiplication rounds to float */
            for (int64_t j = 1; j < l->n; j++) acc *= (float)line_at(l, j);
            return vec_convert(dt, DT_FP32, acc);
        }
        uint64_t acc = 1;
        for (int64_t j = 0; j < l->n; j++) acc *= vec_bits(line_at(l, j));
        return vec_convert(dt, src, vec_wrap(src, acc));
    }
    if (op != VR_SUM) {
        double acc = line_at(l, 0);
        for (int64_t j = 1; j < l->n; j++) acc = op == VR_MAX ? vec_max(acc, line_at(l, j)) : vec_min(acc, line_at(l, j));
        return vec_convert(dt, src, acc);
    }
    if (dtype_is_float(src)) {
        float acc = (float)line_at(l, 0);   /* FP32 running sum: every addition rounds to float */
        for (int64_t j = 1; j < l->n; j++) acc += (float)line_at(l, j);
        return vec_convert(dt, DT_FP32, acc);
    }
    uint64_t acc = 0;
    for (int64_t j = 0; j < l->n; j++) acc += vec_bits(line_at(l, j));
    return vec_convert(dt, src, vec_wrap(src, acc));
}

static bool empty_reduction(VecArgs *a, const InterpArray *x) {
    char buf[128];
    return interp_fail(a->c, a->call->span, "%s: the valid region of %s is empty along the reduced axis", vec_name(a),
                       interp_shape_str(x, buf, sizeof buf));
}

/* row_*(x[, tmp]) -> [..., R, 1]: one value per valid row, valid box [.., vR, 1]. */
static bool op_row_reduce(VecArgs *a, VecRed op, InterpValue *out) {
    InterpArray *x, *res;
    if (!vec_arg_array(a, 0, "the operand", &x)) return false;
    if (x->rank < 1) return interp_fail(a->c, a->call->span, "%s: needs a tensor or tile of rank >= 1", vec_name(a));
    int64_t R = vec_rows(x), C = vec_cols(x), vc = vec_valid_cols(x), shape[INTERP_MAX_RANK];
    memcpy(shape, x->shape, sizeof shape);
    shape[x->rank - 1] = 1;
    DType dt = vec_result_dtype(a, x->dtype);
    if (!vec_new_result(a, dt, x->rank, shape, &res)) return false;
    memcpy(res->valid, x->valid, sizeof x->valid);
    res->valid[x->rank - 1] = vc > 0;
    for (int64_t r = 0; r < R; r++) {
        if (!vec_row_valid(x, r)) continue;
        if (vc == 0) { interp_array_release(res); return empty_reduction(a, x); }
        Line l = { x, r * C, 1, NULL, vc };
        interp_set(res, r, reduce_line(op, x->dtype, dt, &l));
    }
    *out = interp_arr_value(res);
    return true;
}

/* col_*(x[, tmp]) -> [1, ..., C]: one value per valid column over the valid rows, top to bottom. */
static bool op_col_reduce(VecArgs *a, VecRed op, InterpValue *out) {
    InterpArray *x, *res;
    if (!vec_arg_array(a, 0, "the operand", &x)) return false;
    if (x->rank < 1) return interp_fail(a->c, a->call->span, "%s: needs a tensor or tile of rank >= 1", vec_name(a));
    int64_t R = vec_rows(x), C = vec_cols(x), vc = vec_valid_cols(x), shape[INTERP_MAX_RANK];
    for (int d = 0; d < x->rank; d++) shape[d] = d + 1 < x->rank ? 1 : C;
    int64_t *rows = malloc(sizeof(int64_t) * (size_t)(R > 0 ? R : 1)), nr = 0;
    PTOC_ASSERT(rows, "out of memory");
    for (int64_t r = 0; r < R; r++)
        if (vec_row_valid(x, r)) rows[nr++] = r;
    DType dt = vec_result_dtype(a, x->dtype);
    bool ok = !(nr == 0 && vc > 0) || empty_reduction(a, x);
    if (ok) ok = vec_new_result(a, dt, x->rank, shape, &res);
    if (ok) {
        for (int d = 0; d + 1 < x->rank; d++) res->valid[d] = nr > 0;
        res->valid[x->rank - 1] = vc;
        for (int64_t c = 0; c < vc; c++) {
            Line l = { x, c, C, rows, nr };
            interp_set(res, c, reduce_line(op, x->dtype, dt, &l));
        }
        *out = interp_arr_value(res);
    }
    free(rows);
    return ok;
}

/* ---------------------------------------------------------------- dispatch */
#define BOTH(x) case OP_TILE_##x: case OP_TENSOR_##x

bool interp_vec_fill_reduce(VecArgs *a, InterpValue *out) {
    switch (a->call->call.op) {
    BOTH(FULL): return op_full(a, out);
    BOTH(EXPANDS): return op_expands(a, out);
    BOTH(FILLPAD): return op_fillpad(a, out);
    BOTH(ROW_SUM): return op_row_reduce(a, VR_SUM, out);
    BOTH(ROW_MAX): return op_row_reduce(a, VR_MAX, out);
    BOTH(ROW_MIN): return op_row_reduce(a, VR_MIN, out);
    BOTH(COL_SUM): return op_col_reduce(a, VR_SUM, out);
    BOTH(COL_MAX): return op_col_reduce(a, VR_MAX, out);
    BOTH(COL_MIN): return op_col_reduce(a, VR_MIN, out);
    BOTH(ROW_PROD): return op_row_reduce(a, VR_PROD, out);
    BOTH(COL_PROD): return op_col_reduce(a, VR_PROD, out);
    case OP_TILE_FILLPAD_INPLACE: return op_fillpad(a, out);   /* the padding cells of x are not observable through x */
    BOTH(FILLPAD_EXPAND): return op_fillpad_expand(a, out);
    default:
        return interp_fail(a->c, a->call->span, "the interpreter does not support vector op '%s'", vec_name(a));
    }
}
