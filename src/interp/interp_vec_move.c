/* interp_vec_move — the interpreter's transpose, transpose_view, concat and tile slice (spec/ops.md
 * §4.9). Requires: interp_vec.h. Produces: interp_vec_move. Does: on logical arrays: a transpose (a
 * copy or a view alike) is [C, R] with element (c, r) = x(r, c) and the valid box swapped;
 * concat(a, b) is [R, Ca + Cb] with a's columns then b's; slice(t, shape, offset[, valid_shape]) is
 * the window's values (a view on the hardware; nothing writes through a slice, so a copy means the
 * same), valid box = valid_shape, else the whole window (as upstream: not narrowed by t's). */
#include "interp/interp_vec.h"

static bool op_transpose(VecArgs *a, InterpValue *out) {
    InterpArray *x, *res;
    if (!vec_arg_array(a, 0, "the operand", &x)) return false;
    if (x->rank != 2) return interp_fail(a->c, a->call->span, "%s: expects a 2-D operand", vec_name(a));
    int64_t R = x->shape[0], C = x->shape[1], shape[2] = { C, R };
    if (!vec_new_result(a, x->dtype, 2, shape, &res)) return false;
    if (!res) return interp_fail(a->c, a->call->span, "%s: out of memory", vec_name(a));
    for (int64_t r = 0; r < R; r++)
        for (int64_t c = 0; c < C; c++) interp_set(res, c * R + r, interp_get(x, r * C + c));
    res->valid[0] = x->valid[1];
    res->valid[1] = x->valid[0];
    *out = interp_arr_value(res);
    return true;
}

static bool op_concat(VecArgs *a, InterpValue *out) {
    InterpArray *x, *y, *res;
    if (!vec_arg_array(a, 0, "the first operand", &x) || !vec_arg_array(a, 1, "the second operand", &y)) return false;
    if (x->rank != 2 || y->rank != 2 || x->shape[0] != y->shape[0])
        return interp_fail(a->c, a->call->span, "%s: expects two 2-D operands with the same rows", vec_name(a));
    int64_t R = x->shape[0], Ca = x->shape[1], Cb = y->shape[1], shape[2] = { R, Ca + Cb };
    if (!vec_new_result(a, x->dtype, 2, shape, &res)) return false;
    if (!res) return interp_fail(a->c, a->call->span, "%s: out of memory", vec_name(a));
    for (int64_t r = 0; r < R; r++) {
        for (int64_t c = 0; c < Ca; c++) interp_set(res, r * (Ca + Cb) + c, interp_get(x, r * Ca + c));
        for (int64_t c = 0; c < Cb; c++) interp_store(res, r * (Ca + Cb) + Ca + c, interp_get(y, r * Cb + c));
    }
    *out = interp_arr_value(res);
    return true;
}

/* Argument i as exactly two integers. */
static bool pair(VecArgs *a, int i, const char *what, int64_t *v) {
    InterpValue x = i < a->n ? a->v[i] : (InterpValue){ 0 };
    bool ok = x.kind == IV_TUPLE && x.tup->n == 2;
    for (int k = 0; ok && k < 2; k++) {
        ok = x.tup->items[k].kind == IV_INT;
        v[k] = x.tup->items[k].i;
    }
    return ok || interp_fail(a->c, a->call->span, "%s: %s must be two integers", vec_name(a), what);
}

static bool op_slice(VecArgs *a, InterpValue *out) {
    InterpArray *t, *res;
    int64_t sh[2], off[2], vs[2];
    if (!vec_arg_array(a, 0, "the sliced tile", &t) || !pair(a, 1, "the shape", sh) || !pair(a, 2, "the offset", off)) return false;
    if (t->rank != 2) return interp_fail(a->c, a->call->span, "%s: expects a 2-D tile", vec_name(a));
    for (int d = 0; d < 2; d++)
        if (sh[d] <= 0 || off[d] < 0 || off[d] > t->shape[d] - sh[d]) {
            char b[128];
            return interp_fail(a->c, a->call->span, "%s: the window [%lld, %lld] at [%lld, %lld] leaves %s", vec_name(a),
                               (long long)sh[0], (long long)sh[1], (long long)off[0], (long long)off[1],
                               interp_shape_str(t, b, sizeof b));
        }
    vs[0] = sh[0];
    vs[1] = sh[1];
    if (a->n > 3 && !pair(a, 3, "valid_shape", vs)) return false;
    if (vs[0] < 0 || vs[1] < 0 || vs[0] > sh[0] || vs[1] > sh[1])
        return interp_fail(a->c, a->call->span, "%s: valid_shape [%lld, %lld] exceeds the window [%lld, %lld]", vec_name(a),
                           (long long)vs[0], (long long)vs[1], (long long)sh[0], (long long)sh[1]);
    if (!vec_new_result(a, t->dtype, 2, sh, &res)) return false;
    for (int64_t r = 0; r < sh[0]; r++)
        for (int64_t c = 0; c < sh[1]; c++) interp_set(res, r * sh[1] + c, interp_get(t, (off[0] + r) * t->shape[1] + off[1] + c));
    res->valid[0] = vs[0];
    res->valid[1] = vs[1];
    *out = interp_arr_value(res);
    return true;
}

bool interp_vec_move(VecArgs *a, InterpValue *out) {
    switch (ir_vec_kind(a->call->call.op)) {
    case VK_TRANSPOSE: case VK_TRANSPOSE_VIEW: return op_transpose(a, out);
    case VK_CONCAT: return op_concat(a, out);
    case VK_SLICE: return op_slice(a, out);
    default: return interp_fail(a->c, a->call->span, "internal: %s is not a transpose or concat", vec_name(a));
    }
}
